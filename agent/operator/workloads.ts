// The objects a ManagedComponent becomes, as pure functions of the resource: a StatefulSet (stateful services)
// or a Deployment from the mirror by digest, a Service, a ConfigMap and a NetworkPolicy, all labelled and owned.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ManagedComponentSpec } from '../../main/wire/protocol';

export interface ManagedComponentObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; generation?: number; deletionTimestamp?: string; finalizers?: string[] };
  spec: ManagedComponentSpec;
}

/** Services whose members keep data: a StatefulSet with stable names, upgraded canary first by partition. */
const STATEFUL = new Set(['etcd', 'nats']);
/** The ports each catalog service listens on (resources/catalog), by name. */
const PORTS: Record<string, Record<string, number>> = {
  etcd: { client: 2379, peer: 2380 },
  nats: { client: 4222, cluster: 6222, monitor: 8222 },
  'node-exporter': { metrics: 9100 },
  opa: { http: 8181 },
  openfga: { http: 8080, grpc: 8081 },
};

export const OPERATOR_NAME = 'navin-operator';
export const DEFAULT_INGRESS_NAMESPACE = 'ingress-nginx';

export const isStateful = (spec: ManagedComponentSpec): boolean => STATEFUL.has(spec.component);
export const portsOf = (spec: ManagedComponentSpec): Record<string, number> => PORTS[spec.component] ?? {};

export function labelsFor(mc: ManagedComponentObject): Record<string, string> {
  return {
    'app.kubernetes.io/name': mc.spec.component,
    'app.kubernetes.io/instance': mc.metadata.name,
    'app.kubernetes.io/version': mc.spec.version,
    'app.kubernetes.io/managed-by': OPERATOR_NAME,
    'app.kubernetes.io/part-of': 'navin-platform',
  };
}

/** The labels that select the pods: never the version, so an upgrade keeps the same selector. */
export const selectorFor = (mc: ManagedComponentObject): Record<string, string> => ({
  'app.kubernetes.io/name': mc.spec.component,
  'app.kubernetes.io/instance': mc.metadata.name,
});

/** The resource as controller of what is made from it: garbage collection removes it all with the resource. */
export const ownerReference = (mc: ManagedComponentObject) => ({
  apiVersion: mc.apiVersion,
  kind: mc.kind,
  name: mc.metadata.name,
  uid: mc.metadata.uid,
  controller: true,
  blockOwnerDeletion: true,
});

function meta(mc: ManagedComponentObject, name: string) {
  return { name, namespace: mc.metadata.namespace, labels: labelsFor(mc), ownerReferences: [ownerReference(mc)] };
}

/** The canary partition: `config.canary_partition` pods (highest ordinals first) keep the old revision. */
function partitionOf(spec: ManagedComponentSpec, replicas: number): number {
  const p = spec.config?.canary_partition;
  return typeof p === 'number' && Number.isInteger(p) && p >= 0 ? Math.min(p, replicas) : 0;
}

function podTemplate(mc: ManagedComponentObject) {
  const spec = mc.spec;
  const image = spec.artifacts?.[0]?.image;
  if (!image) throw new Error(`${mc.metadata.name} names no image: a component runs only from the mirror by digest`);
  const resources = spec.resources && (spec.resources.cpu || spec.resources.memory) ? { requests: { ...spec.resources } } : undefined;
  return {
    metadata: {
      labels: labelsFor(mc),
      ...(spec.restartedAt ? { annotations: { 'kubectl.kubernetes.io/restartedAt': spec.restartedAt } } : {}),
    },
    spec: {
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: spec.component,
          image,
          ports: Object.entries(portsOf(spec)).map(([name, containerPort]) => ({ name, containerPort, protocol: 'TCP' })),
          envFrom: [{ secretRef: { name: `${mc.metadata.name}-env`, optional: true } }],
          volumeMounts: [{ name: 'config', mountPath: '/etc/navin', readOnly: true }],
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
          ...(resources ? { resources } : {}),
        },
      ],
      volumes: [{ name: 'config', configMap: { name: `${mc.metadata.name}-config` } }],
    },
  };
}

export function workloadFor(mc: ManagedComponentObject): KubernetesObject {
  const replicas = mc.spec.replicas ?? 1;
  const common = { replicas, selector: { matchLabels: selectorFor(mc) }, template: podTemplate(mc) };
  if (isStateful(mc.spec))
    return {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta(mc, mc.metadata.name),
      spec: {
        ...common,
        serviceName: mc.metadata.name,
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: partitionOf(mc.spec, replicas) } },
      },
    } as KubernetesObject;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(mc, mc.metadata.name),
    spec: { ...common, strategy: { type: 'RollingUpdate' } },
  } as KubernetesObject;
}

export function serviceFor(mc: ManagedComponentObject): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(mc, mc.metadata.name),
    spec: {
      selector: selectorFor(mc),
      // A StatefulSet's members are found by name through a headless Service.
      ...(isStateful(mc.spec) ? { clusterIP: 'None', publishNotReadyAddresses: true } : {}),
      ports: Object.entries(portsOf(mc.spec)).map(([name, port]) => ({ name, port, targetPort: name, protocol: 'TCP' })),
    },
  } as KubernetesObject;
}

export function configMapFor(mc: ManagedComponentObject): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(mc, `${mc.metadata.name}-config`),
    data: { 'config.json': JSON.stringify(mc.spec.config ?? {}, null, 2) },
  } as KubernetesObject;
}

/** Traffic from the component's own namespace and the ingress controller's only; every other namespace refused. */
export function networkPolicyFor(mc: ManagedComponentObject, ingressNamespace: string): KubernetesObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta(mc, `${mc.metadata.name}-same-namespace`),
    spec: {
      podSelector: { matchLabels: selectorFor(mc) },
      policyTypes: ['Ingress'],
      ingress: [
        {
          from: [{ podSelector: {} }, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ingressNamespace } } }],
        },
      ],
    },
  } as KubernetesObject;
}

/** Every object of one component, in the order they are made: the config before the workload that mounts it. */
export function objectsFor(mc: ManagedComponentObject, ingressNamespace: string): KubernetesObject[] {
  return [configMapFor(mc), workloadFor(mc), serviceFor(mc), networkPolicyFor(mc, ingressNamespace)];
}
