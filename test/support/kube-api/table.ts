// meta.k8s.io/v1 Table output (what `kubectl get` asks for), with the columns kubectl users expect per kind.
import type { PrinterColumn, ResourceType, StoredObject } from './types.js';
import { storageKey } from './types.js';

interface Column {
  name: string;
  type: string;
  format?: string;
  description: string;
  priority: number;
  cell: (o: StoredObject) => unknown;
}

/** duration.HumanDuration, as the server renders Age. */
export const humanDuration = (ms: number): string => {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (h < 192) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
};

const age = (o: StoredObject): string => humanDuration(Date.now() - Date.parse(o.metadata.creationTimestamp));
const col = (name: string, cell: Column['cell'], type = 'string', priority = 0): Column => ({
  name,
  type,
  description: name,
  priority,
  cell,
  ...(name === 'Name' ? { format: 'name' } : {}),
});
const NAME = col('Name', (o) => o.metadata.name);
const AGE = col('Age', age);
const get = (o: unknown, path: string): unknown =>
  path
    .split('.')
    .filter(Boolean)
    .reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), o);

const nodeStatus = (o: StoredObject): string => {
  const ready = (get(o, 'status.conditions') as { type: string; status: string }[] | undefined)?.find((c) => c.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  return get(o, 'spec.unschedulable') ? `${base},SchedulingDisabled` : base;
};
const nodeRoles = (o: StoredObject): string => {
  const roles = Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length ? roles.sort().join(',') : '<none>';
};
const count = (v: unknown): number => (v && typeof v === 'object' ? Object.keys(v).length : 0);

interface Container {
  name?: string;
  image?: string;
}
const containers = (o: StoredObject, path: string): Container[] => (get(o, path) as Container[] | undefined) ?? [];
const names = (cs: Container[]): string => cs.map((c) => c.name ?? '').join(',');
const images = (cs: Container[]): string => cs.map((c) => c.image ?? '').join(',');

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
/** metav1.LabelSelectorAsSelector(...).String(): `app=web,tier in (a,b)`, `<none>` when empty. */
const selectorString = (sel: LabelSelector | undefined): string => {
  const parts = [
    ...Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => ({ key: k, text: `${k}=${v}` })),
    ...(sel?.matchExpressions ?? []).map((e) => ({
      key: e.key,
      text:
        e.operator === 'Exists'
          ? e.key
          : e.operator === 'DoesNotExist'
            ? `!${e.key}`
            : `${e.key} ${e.operator === 'NotIn' ? 'notin' : 'in'} (${[...(e.values ?? [])].sort().join(',')})`,
    })),
  ].sort((a, b) => a.key.localeCompare(b.key));
  return parts.length ? parts.map((p) => p.text).join(',') : '<none>';
};
/** A Service's spec.selector map, as the printer shows it. */
const mapSelector = (m: Record<string, string> | undefined): string =>
  m && Object.keys(m).length
    ? Object.keys(m)
        .sort()
        .map((k) => `${k}=${m[k]}`)
        .join(',')
    : '<none>';

const address = (o: StoredObject, type: string): string =>
  ((get(o, 'status.addresses') as { type: string; address: string }[] | undefined) ?? []).find((a) => a.type === type)?.address ?? '<none>';

interface PodStatus {
  phase?: string;
  reason?: string;
  podIP?: string;
  nominatedNodeName?: string;
  containerStatuses?: { ready?: boolean; restartCount?: number }[];
}
const podStatus = (o: StoredObject): PodStatus => (o.status ?? {}) as PodStatus;

/** Workload columns shared by Deployments, StatefulSets, ReplicaSets and DaemonSets, the wide ones at priority 1. */
const WORKLOAD_WIDE = [
  col('Containers', (o) => names(containers(o, 'spec.template.spec.containers')), 'string', 1),
  col('Images', (o) => images(containers(o, 'spec.template.spec.containers')), 'string', 1),
  col('Selector', (o) => selectorString(get(o, 'spec.selector') as LabelSelector | undefined), 'string', 1),
];

const COLUMNS: Record<string, Column[]> = {
  '/nodes': [
    NAME,
    col('Status', nodeStatus),
    col('Roles', nodeRoles),
    AGE,
    col('Version', (o) => get(o, 'status.nodeInfo.kubeletVersion') ?? ''),
    col('Internal-IP', (o) => address(o, 'InternalIP'), 'string', 1),
    col('External-IP', (o) => address(o, 'ExternalIP'), 'string', 1),
    col('OS-Image', (o) => get(o, 'status.nodeInfo.osImage') ?? '<unknown>', 'string', 1),
    col('Kernel-Version', (o) => get(o, 'status.nodeInfo.kernelVersion') ?? '<unknown>', 'string', 1),
    col('Container-Runtime', (o) => get(o, 'status.nodeInfo.containerRuntimeVersion') ?? '<unknown>', 'string', 1),
  ],
  '/pods': [
    NAME,
    col('Ready', (o) => {
      const st = podStatus(o).containerStatuses ?? [];
      return `${st.filter((c) => c.ready).length}/${containers(o, 'spec.containers').length}`;
    }),
    col('Status', (o) => podStatus(o).reason ?? podStatus(o).phase ?? 'Pending'),
    col('Restarts', (o) => (podStatus(o).containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0), 'string'),
    AGE,
    col('IP', (o) => podStatus(o).podIP ?? '<none>', 'string', 1),
    col('Node', (o) => get(o, 'spec.nodeName') ?? '<none>', 'string', 1),
    col('Nominated Node', (o) => podStatus(o).nominatedNodeName ?? '<none>', 'string', 1),
    col(
      'Readiness Gates',
      (o) => {
        const gates = (get(o, 'spec.readinessGates') as unknown[] | undefined) ?? [];
        return gates.length ? `0/${gates.length}` : '<none>';
      },
      'string',
      1,
    ),
  ],
  '/namespaces': [NAME, col('Status', (o) => get(o, 'status.phase') ?? ''), AGE],
  '/configmaps': [NAME, col('Data', (o) => count(o.data) + count(o.binaryData), 'integer'), AGE],
  '/secrets': [NAME, col('Type', (o) => o.type ?? ''), col('Data', (o) => count(o.data), 'integer'), AGE],
  '/serviceaccounts': [NAME, col('Secrets', (o) => (Array.isArray(o.secrets) ? o.secrets.length : 0), 'integer'), AGE],
  '/services': [
    NAME,
    col('Type', (o) => get(o, 'spec.type') ?? ''),
    col('Cluster-IP', (o) => get(o, 'spec.clusterIP') ?? '<none>'),
    col('External-IP', () => '<none>'),
    col(
      'Port(s)',
      (o) =>
        ((get(o, 'spec.ports') as { port: number; protocol?: string }[] | undefined) ?? [])
          .map((p) => `${p.port}/${p.protocol ?? 'TCP'}`)
          .join(',') || '<none>',
    ),
    AGE,
    col('Selector', (o) => mapSelector(get(o, 'spec.selector') as Record<string, string> | undefined), 'string', 1),
  ],
  'apps/deployments': [
    NAME,
    col('Ready', (o) => `${Number(get(o, 'status.readyReplicas') ?? 0)}/${Number(get(o, 'spec.replicas') ?? 0)}`),
    col('Up-to-date', (o) => Number(get(o, 'status.updatedReplicas') ?? 0), 'integer'),
    col('Available', (o) => Number(get(o, 'status.availableReplicas') ?? 0), 'integer'),
    AGE,
    ...WORKLOAD_WIDE,
  ],
  'apps/statefulsets': [
    NAME,
    col('Ready', (o) => `${Number(get(o, 'status.readyReplicas') ?? 0)}/${Number(get(o, 'spec.replicas') ?? 0)}`),
    AGE,
    ...WORKLOAD_WIDE.slice(0, 2),
  ],
  'apps/replicasets': [
    NAME,
    col('Desired', (o) => Number(get(o, 'spec.replicas') ?? 0), 'integer'),
    col('Current', (o) => Number(get(o, 'status.replicas') ?? 0), 'integer'),
    col('Ready', (o) => Number(get(o, 'status.readyReplicas') ?? 0), 'integer'),
    AGE,
    ...WORKLOAD_WIDE,
  ],
  'coordination.k8s.io/leases': [NAME, col('Holder', (o) => get(o, 'spec.holderIdentity') ?? ''), AGE],
  'storage.k8s.io/storageclasses': [
    NAME,
    col('Provisioner', (o) => o.provisioner ?? ''),
    col('ReclaimPolicy', (o) => o.reclaimPolicy ?? 'Delete'),
    AGE,
  ],
  'networking.k8s.io/ingressclasses': [NAME, col('Controller', (o) => get(o, 'spec.controller') ?? ''), AGE],
  'apiextensions.k8s.io/customresourcedefinitions': [NAME, col('Created At', (o) => o.metadata.creationTimestamp, 'date')],
};

const printerColumns = (cols: PrinterColumn[]): Column[] => [
  NAME,
  ...cols.map((c) => ({
    name: c.name,
    type: c.type,
    description: c.description ?? '',
    priority: c.priority ?? 0,
    ...(c.format ? { format: c.format } : {}),
    cell: (o: StoredObject) => {
      const v = get(o, c.jsonPath);
      return c.type === 'date' && typeof v === 'string' ? humanDuration(Date.now() - Date.parse(v)) : (v ?? null);
    },
  })),
];

const columnsFor = (rt: ResourceType): Column[] =>
  rt.crd?.printerColumns?.length ? printerColumns(rt.crd.printerColumns) : (COLUMNS[storageKey(rt)] ?? [NAME, AGE]);

/** `includeObject`: None, Metadata (PartialObjectMetadata, the default) or Object; `noHeaders` leaves the column definitions out. */
export const toTable = (
  rt: ResourceType,
  items: StoredObject[],
  meta: { resourceVersion: string; continue?: string },
  includeObject = 'Metadata',
  noHeaders = false,
): object => {
  const cols = columnsFor(rt);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: meta.resourceVersion, ...(meta.continue ? { continue: meta.continue } : {}) },
    // A watch sends the definitions with its first event only, as the real watch encoder does (TableOptions.NoHeaders).
    columnDefinitions: noHeaders ? null : cols.map(({ cell: _c, ...d }) => d),
    rows: items.map((o) => ({
      cells: cols.map((c) => c.cell(o)),
      object:
        includeObject === 'Object'
          ? o
          : includeObject === 'None'
            ? null
            : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
};
