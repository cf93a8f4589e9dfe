// Entry point of the Kubernetes API test server: start one, or pick a real cluster with kubeTarget().
export { startKubeApiServer } from './server.js';
export type { Identity, KubeApiServer, KubeApiServerOptions } from './server.js';
export { kubeTarget } from './target.js';
export type { KubeTarget } from './target.js';
export type { AppliedObject } from './apply.js';
export { applyManifests, parseManifests } from './apply.js';
export type { AdminObjects } from './objects.js';
export type { Faults, FailOptions } from './faults.js';
export type { RequestRecord } from './handlers.js';
export { builtinRbac, defaultSeed, makeNode } from './seed.js';
export type { KubeObject, StoredObject } from './types.js';
export type { Status } from './status.js';
export { KubeRequestError, kubeRequest, kubeJson } from './rest-client.js';
