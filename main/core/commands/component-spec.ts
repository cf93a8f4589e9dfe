// Validates a ManagedComponent spec against the CRD's schema before anything is signed, so an operator's
// mistake is a 400 here rather than a rejection in the cluster.
import { ValidationError } from '../errors';
import type { ManagedComponentSpec } from '../../wire/protocol';
import { COMPONENT_REPLICAS_MAX, COMPONENT_VERSION_MAX, componentKinds as COMPONENTS } from '../../contract/commands';

const IMAGE = /^[a-z0-9][a-z0-9./:_-]*@sha256:[a-f0-9]{64}$/;
const ENDPOINT = /^(https|http):\/\/[^\s/?#@]+(:\d{1,5})?\/?[^\s]*$|^(tls|tcp):\/\/[^\s/?#@]+:\d{1,5}$/;

export function checkComponentSpec(input: unknown): ManagedComponentSpec {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ValidationError('spec', 'spec must be an object');
  const s = input as Record<string, unknown>;
  const known = new Set(['component', 'version', 'replicas', 'artifacts', 'resources', 'endpoints', 'sandbox', 'restartedAt', 'config']);
  for (const k of Object.keys(s)) if (!known.has(k)) throw new ValidationError(`spec.${k}`, `spec.${k} is not a field of ManagedComponent`);
  if (typeof s.component !== 'string' || !COMPONENTS.includes(s.component as never))
    throw new ValidationError('spec.component', `spec.component must be one of ${COMPONENTS.join(', ')}`);
  if (typeof s.version !== 'string' || s.version.length === 0 || s.version.length > COMPONENT_VERSION_MAX)
    throw new ValidationError('spec.version', 'spec.version is required (1 to 64 characters)');
  const spec: ManagedComponentSpec = { component: s.component, version: s.version };
  if (s.replicas !== undefined) {
    if (!Number.isInteger(s.replicas) || (s.replicas as number) < 0 || (s.replicas as number) > COMPONENT_REPLICAS_MAX)
      throw new ValidationError('spec.replicas', 'spec.replicas is an integer from 0 to 99');
    spec.replicas = s.replicas as number;
  }
  if (s.artifacts !== undefined) {
    if (!Array.isArray(s.artifacts)) throw new ValidationError('spec.artifacts', 'spec.artifacts is a list of {name, image}');
    spec.artifacts = s.artifacts.map((a, i) => {
      const x = a as Record<string, unknown>;
      if (typeof x?.name !== 'string' || typeof x.image !== 'string' || !IMAGE.test(x.image))
        throw new ValidationError(
          `spec.artifacts[${i}]`,
          `spec.artifacts[${i}] needs a name and an image pinned by digest (name@sha256:...)`,
        );
      return { name: x.name, image: x.image };
    });
  }
  if (s.resources !== undefined) {
    const r = s.resources as Record<string, unknown>;
    if (typeof r !== 'object' || r === null || Object.values(r).some((v) => typeof v !== 'string'))
      throw new ValidationError('spec.resources', 'spec.resources is {cpu, memory} as Kubernetes quantities');
    spec.resources = r as ManagedComponentSpec['resources'];
  }
  if (s.endpoints !== undefined) {
    if (!Array.isArray(s.endpoints) || s.endpoints.length > 32)
      throw new ValidationError('spec.endpoints', 'spec.endpoints is a list of at most 32 {name, url}');
    const names = new Set<string>();
    spec.endpoints = s.endpoints.map((e, i) => {
      const x = e as Record<string, unknown>;
      if (typeof x?.name !== 'string' || !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(x.name) || names.has(x.name))
        throw new ValidationError(`spec.endpoints[${i}].name`, `spec.endpoints[${i}].name is a unique lowercase DNS label`);
      names.add(x.name);
      if (typeof x.url !== 'string' || !ENDPOINT.test(x.url))
        throw new ValidationError(
          `spec.endpoints[${i}].url`,
          `spec.endpoints[${i}].url is https://host[:port], tls://host:port, http://host[:port] or tcp://host:port`,
        );
      return { name: x.name, url: x.url };
    });
  }
  if (s.sandbox !== undefined) {
    if (typeof s.sandbox !== 'boolean') throw new ValidationError('spec.sandbox', 'spec.sandbox is true or false');
    spec.sandbox = s.sandbox;
  }
  if (s.restartedAt !== undefined) {
    if (typeof s.restartedAt !== 'string' || Number.isNaN(Date.parse(s.restartedAt)))
      throw new ValidationError('spec.restartedAt', 'spec.restartedAt is an RFC 3339 time');
    spec.restartedAt = s.restartedAt;
  }
  if (s.config !== undefined) {
    if (typeof s.config !== 'object' || s.config === null || Array.isArray(s.config))
      throw new ValidationError('spec.config', 'spec.config is an object');
    spec.config = s.config as Record<string, unknown>;
  }
  return spec;
}
