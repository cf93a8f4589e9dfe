// The cluster inventory, read through the Kubernetes API with the identity given (the import identity in the
// manager, the agent's own in the agent) and posted by the agent: part of the wire contract both sides share.
import {
  ApiextensionsV1Api,
  AppsV1Api,
  CoreV1Api,
  NetworkingV1Api,
  StorageV1Api,
  VersionApi,
  type KubeConfig,
  type V1Node,
} from '@kubernetes/client-node';

export interface NodeInventory {
  name: string;
  roles: string[];
  kubelet_version: string;
  os_image: string;
  operating_system: string;
  architecture: string;
  cpu: string;
  memory: string;
  allocatable: { cpu: string; memory: string; pods: string };
  ready: boolean;
}

export interface Inventory {
  kubernetes_version: string;
  nodes: NodeInventory[];
  namespaces: string[];
  crds: string[];
  storage_classes: { name: string; provisioner: string; default: boolean }[];
  default_storage_class: string | null;
  ingress_classes: { name: string; controller: string; default: boolean }[];
  default_ingress_class: string | null;
  coredns: { replicas: number; ready_replicas: number } | null;
}

const DEFAULT_SC = 'storageclass.kubernetes.io/is-default-class';
const DEFAULT_IC = 'ingressclass.kubernetes.io/is-default-class';

export function nodeInventory(n: V1Node): NodeInventory {
  const labels = n.metadata?.labels ?? {};
  const roles = Object.keys(labels)
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .filter(Boolean);
  const info = n.status?.nodeInfo;
  return {
    name: n.metadata?.name ?? '',
    roles,
    kubelet_version: info?.kubeletVersion ?? '',
    os_image: info?.osImage ?? '',
    operating_system: info?.operatingSystem ?? '',
    architecture: info?.architecture ?? '',
    cpu: n.status?.capacity?.cpu ?? '',
    memory: n.status?.capacity?.memory ?? '',
    allocatable: {
      cpu: n.status?.allocatable?.cpu ?? '',
      memory: n.status?.allocatable?.memory ?? '',
      pods: n.status?.allocatable?.pods ?? '',
    },
    ready: n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
  };
}

export async function readInventory(kc: KubeConfig): Promise<Inventory> {
  const core = kc.makeApiClient(CoreV1Api);
  const [version, nodes, namespaces, crds, scs, ics, coredns] = await Promise.all([
    kc.makeApiClient(VersionApi).getCode(),
    core.listNode(),
    core.listNamespace(),
    kc.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition(),
    kc.makeApiClient(StorageV1Api).listStorageClass(),
    kc.makeApiClient(NetworkingV1Api).listIngressClass(),
    kc
      .makeApiClient(AppsV1Api)
      .readNamespacedDeployment({ name: 'coredns', namespace: 'kube-system' })
      .catch((error: { code?: number }) => {
        // Absent, or not readable with this identity (the agent's RBAC does not cover it): no CoreDNS figure.
        if (error?.code === 404 || error?.code === 403) return null;
        throw error;
      }),
  ]);
  const storage_classes = scs.items.map((s) => ({
    name: s.metadata?.name ?? '',
    provisioner: s.provisioner,
    default: s.metadata?.annotations?.[DEFAULT_SC] === 'true',
  }));
  const ingress_classes = ics.items.map((i) => ({
    name: i.metadata?.name ?? '',
    controller: i.spec?.controller ?? '',
    default: i.metadata?.annotations?.[DEFAULT_IC] === 'true',
  }));
  return {
    kubernetes_version: version.gitVersion,
    nodes: nodes.items.map(nodeInventory),
    namespaces: namespaces.items.map((n) => n.metadata?.name ?? '').sort(),
    crds: crds.items.map((c) => c.metadata?.name ?? '').sort(),
    storage_classes,
    default_storage_class: storage_classes.find((s) => s.default)?.name ?? null,
    ingress_classes,
    default_ingress_class: ingress_classes.find((i) => i.default)?.name ?? null,
    coredns: coredns ? { replicas: coredns.spec?.replicas ?? 0, ready_replicas: coredns.status?.readyReplicas ?? 0 } : null,
  };
}
