// The resource registry: the built-in kinds the test server serves, plus the ones CRDs add at run time.
import type { ResourceType, SubresourceDef } from './types.js';
import { groupVersion } from './types.js';

const STANDARD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS: SubresourceDef = { name: 'status', kind: '', verbs: ['get', 'patch', 'update'] };
const SCALE: SubresourceDef = { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] };

interface Def {
  short?: string[];
  cluster?: boolean;
  status?: boolean;
  scale?: boolean;
  verbs?: string[];
  extraSub?: SubresourceDef[];
  generation?: boolean;
  returnDeleted?: boolean;
  fields?: string[];
  categories?: string[];
  virtual?: boolean;
}

const def = (group: string, version: string, plural: string, kind: string, d: Def = {}): ResourceType => ({
  group,
  version,
  plural,
  singular: kind.toLowerCase(),
  kind,
  listKind: `${kind}List`,
  namespaced: !d.cluster,
  verbs: d.verbs ?? (d.virtual ? ['create'] : STANDARD),
  ...(d.short ? { shortNames: d.short } : {}),
  ...(d.categories ? { categories: d.categories } : {}),
  subresources: [...(d.status ? [{ ...STATUS, kind }] : []), ...(d.scale ? [SCALE] : []), ...(d.extraSub ?? [])],
  ...(d.virtual ? { virtual: true } : {}),
  generation: d.generation ?? false,
  returnDeletedObject: d.returnDeleted ?? false,
  allowUnconditionalUpdate: true,
  strategicMerge: true,
  fieldLabels: d.fields ?? [],
});

const ALL = ['all'];
const EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
];
const POD_FIELDS = [
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'status.phase',
  'status.podIP',
  'status.nominatedNodeName',
];

/** The built-in API, in the group order the real server lists. */
export const builtinResources = (): ResourceType[] => [
  def('', 'v1', 'namespaces', 'Namespace', {
    short: ['ns'],
    cluster: true,
    status: true,
    returnDeleted: true,
    fields: ['status.phase'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    extraSub: [{ name: 'finalize', kind: 'Namespace', verbs: ['update'] }],
  }),
  def('', 'v1', 'nodes', 'Node', { short: ['no'], cluster: true, status: true, fields: ['spec.unschedulable'] }),
  def('', 'v1', 'configmaps', 'ConfigMap', { short: ['cm'] }),
  def('', 'v1', 'secrets', 'Secret', { fields: ['type'] }),
  def('', 'v1', 'events', 'Event', { short: ['ev'], fields: EVENT_FIELDS }),
  def('', 'v1', 'serviceaccounts', 'ServiceAccount', {
    short: ['sa'],
    returnDeleted: true,
    extraSub: [{ name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] }],
  }),
  def('', 'v1', 'services', 'Service', { short: ['svc'], status: true, categories: ALL }),
  def('', 'v1', 'endpoints', 'Endpoints', { short: ['ep'] }),
  def('', 'v1', 'pods', 'Pod', { short: ['po'], status: true, returnDeleted: true, categories: ALL, fields: POD_FIELDS }),
  def('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', { short: ['pvc'], status: true }),
  def('', 'v1', 'persistentvolumes', 'PersistentVolume', { short: ['pv'], cluster: true, status: true }),
  def('', 'v1', 'resourcequotas', 'ResourceQuota', { short: ['quota'], status: true }),
  def('', 'v1', 'limitranges', 'LimitRange', { short: ['limits'] }),
  def('apps', 'v1', 'deployments', 'Deployment', { short: ['deploy'], status: true, scale: true, generation: true, categories: ALL }),
  def('apps', 'v1', 'statefulsets', 'StatefulSet', { short: ['sts'], status: true, scale: true, generation: true, categories: ALL }),
  def('apps', 'v1', 'daemonsets', 'DaemonSet', { short: ['ds'], status: true, generation: true, categories: ALL }),
  def('apps', 'v1', 'replicasets', 'ReplicaSet', {
    short: ['rs'],
    status: true,
    scale: true,
    generation: true,
    categories: ALL,
    fields: ['status.replicas'],
  }),
  def('events.k8s.io', 'v1', 'events', 'Event', { short: ['ev'] }),
  def('authentication.k8s.io', 'v1', 'selfsubjectreviews', 'SelfSubjectReview', { cluster: true, virtual: true }),
  def('authentication.k8s.io', 'v1', 'tokenreviews', 'TokenReview', { cluster: true, virtual: true }),
  def('authorization.k8s.io', 'v1', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', { virtual: true }),
  def('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', { cluster: true, virtual: true }),
  def('authorization.k8s.io', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', { cluster: true, virtual: true }),
  def('authorization.k8s.io', 'v1', 'subjectaccessreviews', 'SubjectAccessReview', { cluster: true, virtual: true }),
  def('batch', 'v1', 'jobs', 'Job', { status: true, generation: true, categories: ALL, fields: ['status.successful'] }),
  def('batch', 'v1', 'cronjobs', 'CronJob', { short: ['cj'], status: true, generation: true, categories: ALL }),
  def('networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass', { cluster: true }),
  def('networking.k8s.io', 'v1', 'ingresses', 'Ingress', { short: ['ing'], status: true, generation: true }),
  def('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', { short: ['netpol'], generation: true }),
  def('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', { short: ['pdb'], status: true, generation: true }),
  def('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', { cluster: true }),
  def('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', { cluster: true }),
  def('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding'),
  def('rbac.authorization.k8s.io', 'v1', 'roles', 'Role'),
  def('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', { short: ['sc'], cluster: true, returnDeleted: true }),
  {
    ...def('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', {
      short: ['crd', 'crds'],
      cluster: true,
      status: true,
      generation: true,
      returnDeleted: true,
    }),
    allowUnconditionalUpdate: false,
  },
  def('coordination.k8s.io', 'v1', 'leases', 'Lease'),
];

/** Kube-aware version priority: GA before beta before alpha, higher numbers first. */
export const versionPriority = (a: string, b: string): number => {
  const parse = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [-1, 0, 0];
    return [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [pa, pb] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pb[i] ?? 0) - (pa[i] ?? 0);
  return a.localeCompare(b);
};

export class Registry {
  private types: ResourceType[] = builtinResources();

  all(): ResourceType[] {
    return this.types;
  }

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.find((t) => t.group === group && t.version === version && t.plural === plural);
  }

  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.types.find((t) => groupVersion(t.group, t.version) === apiVersion && t.kind === kind && !t.virtual);
  }

  /** Groups in serving order, each with its versions sorted by priority (the first is the preferred one). */
  groups(): { name: string; versions: string[] }[] {
    const out: { name: string; versions: string[] }[] = [];
    for (const t of this.types) {
      let g = out.find((x) => x.name === t.group);
      if (!g) out.push((g = { name: t.group, versions: [] }));
      if (!g.versions.includes(t.version)) g.versions.push(t.version);
    }
    for (const g of out) g.versions.sort(versionPriority);
    return out;
  }

  inGroupVersion(group: string, version: string): ResourceType[] {
    return this.types.filter((t) => t.group === group && t.version === version);
  }

  /** Replaces every type the CRD serves (none when it is being removed). */
  setCrdTypes(crdName: string, types: ResourceType[]): void {
    this.types = this.types.filter((t) => t.crd?.name !== crdName).concat(types);
  }
}
