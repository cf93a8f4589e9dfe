// startKubeApiServer(): the HTTPS Kubernetes API test server on 127.0.0.1 and the handle tests drive it with.
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { AppliedObject } from './apply.js';
import { applyManifests } from './apply.js';
import { Authenticator } from './authn.js';
import type { VersionInfo } from './discovery.js';
import { versionInfo } from './discovery.js';
import { Engine } from './engine.js';
import type { Faults } from './faults.js';
import { FaultInjector } from './faults.js';
import type { RequestRecord, ServerContext } from './handlers.js';
import { handleRequest } from './handlers.js';
import type { KubeconfigOptions } from './kubeconfig.js';
import { kubeconfigYaml } from './kubeconfig.js';
import type { AdminObjects } from './objects.js';
import { adminObjects } from './objects.js';
import { OpenApi } from './openapi.js';
import { RbacAuthorizer } from './rbac.js';
import { builtinRbac, defaultSeed } from './seed.js';
import { testPki } from './tls.js';
import type { KubeObject } from './types.js';

export interface KubeApiServerOptions {
  /** Reported by /version (default v1.30.0); `version` overrides other fields. */
  gitVersion?: string;
  version?: Partial<VersionInfo>;
  /** Objects written at start, in order: a list replaces defaultSeed(), a function edits it. */
  seed?: KubeObject[] | ((defaults: KubeObject[]) => KubeObject[]);
  /** Seed the bootstrap ClusterRoles and bindings (cluster-admin, system:discovery, system:basic-user...). Default true. */
  builtinRbac?: boolean;
  /** `default` ServiceAccount and `kube-root-ca.crt` ConfigMap in every namespace. Default true. */
  namespaceDefaults?: boolean;
  /** Watch events kept for resuming; older resourceVersions get 410 Expired. Default 1000. */
  historyLimit?: number;
  /** BOOKMARK period for watches that allow them. Default 1000 ms. */
  bookmarkIntervalMs?: number;
  /** Time a deleted namespace stays Terminating. Default 0 (its content goes at once). */
  namespaceFinalizeDelayMs?: number;
  adminToken?: string;
  /** Default 0: a free port. */
  port?: number;
}

/** Who a kubeconfig is for: a bearer token, a ServiceAccount (a token is requested), or any user and groups. */
export type Identity = string | { namespace: string; serviceAccount: string } | { user: string; groups?: string[] };

export interface KubeApiServer {
  url: string;
  port: number;
  caPem: string;
  adminToken: string;
  kubeconfigFor(who: Identity, opts?: KubeconfigOptions): string;
  /** A client-node KubeConfig for the identity (admin when omitted). */
  kubeConfig(who?: Identity, opts?: KubeconfigOptions): KubeConfig;
  /** Writes the kubeconfig (mode 0600) as dir/name and returns its path. */
  writeKubeconfig(dir: string, name: string, who: Identity): Promise<string>;
  /** kubectl apply -f over HTTPS with the token (admin by default): RBAC applies. */
  apply(yamlText: string, token?: string): Promise<AppliedObject[]>;
  /** What POST serviceaccounts/{name}/token returns in status.token; throws when the ServiceAccount does not exist. */
  createToken(namespace: string, serviceAccount: string, opts?: { expirationSeconds?: number; audiences?: string[] }): string;
  /** A token for a user name and groups (User and Group subjects). */
  userToken(user: string, groups?: string[]): string;
  store: AdminObjects;
  faults: Faults;
  /** The last 1000 requests: method, path, query, content type, accept, user, status code. */
  requests: RequestRecord[];
  /** Stops listening and drops every connection; data is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port with the same data. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const startKubeApiServer = async (opts: KubeApiServerOptions = {}): Promise<KubeApiServer> => {
  const pki = testPki();
  const engine = new Engine({
    historyLimit: opts.historyLimit ?? 1000,
    namespaceDefaults: opts.namespaceDefaults ?? true,
    namespaceFinalizeDelayMs: opts.namespaceFinalizeDelayMs ?? 0,
    caPem: pki.caPem,
  });
  const authn = new Authenticator(pki.keyPem, opts.adminToken);
  const rbac = new RbacAuthorizer({
    clusterRoles: () => engine.store.list('rbac.authorization.k8s.io/clusterroles'),
    clusterRoleBindings: () => engine.store.list('rbac.authorization.k8s.io/clusterrolebindings'),
    roles: (ns) => engine.store.list('rbac.authorization.k8s.io/roles', ns),
    roleBindings: (ns) => engine.store.list('rbac.authorization.k8s.io/rolebindings', ns),
  });
  const store = adminObjects(engine);
  const seed = typeof opts.seed === 'function' ? opts.seed(defaultSeed()) : (opts.seed ?? defaultSeed());
  for (const o of [...(opts.builtinRbac === false ? [] : builtinRbac()), ...seed]) store.create(o);

  const faults = new FaultInjector();
  const openWatches = new Set<ServerResponse>();
  let port = opts.port ?? 0;
  const ctx: ServerContext = {
    engine,
    authn,
    rbac,
    faults,
    version: versionInfo(opts.gitVersion, opts.version),
    serverAddress: () => `127.0.0.1:${port}`,
    watch: { bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 1000, open: openWatches },
    requests: [],
    openapi: new OpenApi(engine, versionInfo(opts.gitVersion, opts.version).gitVersion),
  };
  const server = createServer(
    { key: pki.keyPem, cert: pki.certPem, minVersion: 'TLSv1.2' },
    (req, res) => void handleRequest(ctx, req, res),
  );
  server.keepAliveTimeout = 5000;
  server.on('connection', (s) => faults.track(s));
  server.on('tlsClientError', () => undefined);

  let listening = false;
  let closed = false;
  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        listening = true;
        resolve();
      });
    });
  const stop = async (): Promise<void> => {
    if (!listening) return;
    listening = false;
    for (const w of openWatches) w.destroy();
    openWatches.clear();
    const closed = new Promise<void>((r) => server.close(() => r()));
    server.closeAllConnections();
    faults.dropConnections();
    await closed;
  };
  await listen();
  const url = `https://127.0.0.1:${port}`;

  const tokenFor = (who: Identity): string => {
    if (typeof who === 'string') return who;
    if ('serviceAccount' in who) return handle.createToken(who.namespace, who.serviceAccount);
    return authn.userToken(who.user, who.groups);
  };
  const handle: KubeApiServer = {
    url,
    port,
    caPem: pki.caPem,
    adminToken: authn.adminToken,
    store,
    faults,
    requests: ctx.requests,
    kubeconfigFor: (who, o) => kubeconfigYaml({ server: url, caPem: pki.caPem }, tokenFor(who), o),
    kubeConfig: (who = authn.adminToken, o) => {
      const kc = new KubeConfig();
      kc.loadFromString(handle.kubeconfigFor(who, o));
      return kc;
    },
    writeKubeconfig: async (dir, name, who) => {
      await mkdir(dir, { recursive: true });
      const path = join(dir, name);
      await writeFile(path, handle.kubeconfigFor(who), { mode: 0o600 });
      return path;
    },
    apply: (yamlText, token = authn.adminToken) => applyManifests(handle.kubeConfig(token), yamlText),
    createToken: (namespace, serviceAccount, o = {}) => {
      const sa = engine.store.get('/serviceaccounts', namespace, serviceAccount);
      if (!sa) throw new Error(`serviceaccounts "${serviceAccount}" not found in namespace "${namespace}"`);
      return authn.issueServiceAccountToken(sa, o.expirationSeconds, o.audiences).token;
    },
    userToken: (user, groups) => authn.userToken(user, groups),
    stop,
    start: async () => {
      if (closed) throw new Error('the server was closed');
      if (!listening) await listen();
    },
    close: async () => {
      closed = true;
      await stop();
    },
  };
  return handle;
};
