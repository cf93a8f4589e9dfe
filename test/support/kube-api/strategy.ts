// Per-kind rules of the real registry strategies: name formats, defaults, Secret data, Service IPs, CRD checks.
import { randomInt } from 'node:crypto';
import { crdStatus, validateCrd } from './crd.js';
import { badRequest } from './status.js';
import type { FieldError } from './status.js';
import type { KubeObject, ResourceType } from './types.js';
import { isPlainObject, nowTimestamp, storageKey } from './types.js';

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** metadata.name rules: DNS labels for namespaces, path segments for RBAC objects, DNS subdomains otherwise. */
export const validateName = (rt: ResourceType, name: string): FieldError[] => {
  if (rt.group === 'rbac.authorization.k8s.io') {
    if (name === '.' || name === '..' || /[/%]/.test(name)) {
      return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: `may not contain '/' or '%'` }];
    }
    return [];
  }
  if (rt.plural === 'namespaces' && rt.group === '') {
    if (name.length > 63 || !LABEL.test(name)) {
      return [
        {
          type: 'Invalid',
          field: 'metadata.name',
          value: name,
          detail: `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        },
      ];
    }
    return [];
  }
  if (name.length > 253 || !SUBDOMAIN.test(name)) {
    return [
      {
        type: 'Invalid',
        field: 'metadata.name',
        value: name,
        detail: `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      },
    ];
  }
  return [];
};

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
/** names.SimpleNameGenerator: the prefix and five random characters. */
export const generateName = (prefix: string): string =>
  prefix + Array.from({ length: 5 }, () => NAME_CHARS[randomInt(NAME_CHARS.length)]).join('');

let nextServiceIp = 20;

interface KindStrategy {
  /** Defaults applied on create and update (after status handling). */
  defaults?(obj: KubeObject, creating: boolean): void;
  validate?(obj: KubeObject): FieldError[];
}

const secret: KindStrategy = {
  defaults(obj) {
    if (!obj.type) obj.type = 'Opaque';
    const data = (isPlainObject(obj.data) ? obj.data : {}) as Record<string, string>;
    for (const [k, v] of Object.entries(data)) {
      if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) {
        throw badRequest(`Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0 (key ${k})`);
      }
    }
    if (isPlainObject(obj.stringData)) {
      for (const [k, v] of Object.entries(obj.stringData)) data[k] = Buffer.from(String(v)).toString('base64');
      delete obj.stringData;
    }
    if (Object.keys(data).length > 0) obj.data = data;
  },
};

const service: KindStrategy = {
  defaults(obj, creating) {
    const spec = (isPlainObject(obj.spec) ? obj.spec : (obj.spec = {})) as Record<string, unknown>;
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (creating && spec.clusterIP === undefined && spec.type !== 'ExternalName') {
      const n = nextServiceIp++;
      spec.clusterIP = `10.96.${Math.floor(n / 250)}.${(n % 250) + 2}`;
      spec.clusterIPs = [spec.clusterIP];
      spec.ipFamilies = ['IPv4'];
      spec.ipFamilyPolicy = 'SingleStack';
    }
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports as Record<string, unknown>[]) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
    }
    if (creating) obj.status = { loadBalancer: {} };
  },
};

const replicated: KindStrategy = {
  defaults(obj) {
    const spec = (isPlainObject(obj.spec) ? obj.spec : (obj.spec = {})) as Record<string, unknown>;
    spec.replicas ??= 1;
  },
};

const namespace: KindStrategy = {
  defaults(obj, creating) {
    const name = obj.metadata?.name ?? '';
    obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, 'kubernetes.io/metadata.name': name } };
    if (creating) {
      obj.spec = { finalizers: ['kubernetes'] };
      obj.status = { phase: 'Active' };
    }
  },
};

const crd: KindStrategy = {
  validate: validateCrd,
  defaults(obj) {
    obj.status = crdStatus(obj, obj.metadata?.creationTimestamp ?? nowTimestamp());
  },
};

const strategies: Record<string, KindStrategy> = {
  '/secrets': secret,
  '/services': service,
  '/namespaces': namespace,
  'apps/deployments': replicated,
  'apps/statefulsets': replicated,
  'apps/replicasets': replicated,
  'apiextensions.k8s.io/customresourcedefinitions': crd,
};

export const strategyFor = (rt: ResourceType): KindStrategy => strategies[storageKey(rt)] ?? {};
