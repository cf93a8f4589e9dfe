// The data a fresh kind-like cluster has: namespaces, nodes, CoreDNS, default storage and ingress classes, built-in RBAC.
import type { KubeObject } from './types.js';

export interface NodeOptions {
  controlPlane?: boolean;
  kubeletVersion?: string;
  cpu?: string;
  memory?: string;
  ready?: boolean;
  address?: string;
}

/** A Node with the status a kubelet reports. */
export const makeNode = (name: string, o: NodeOptions = {}): KubeObject => {
  const cpu = o.cpu ?? '4';
  const memory = o.memory ?? '8025424Ki';
  const ready = o.ready ?? true;
  const at = '2024-05-01T08:00:00Z';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        ...(o.controlPlane
          ? { 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' }
          : {}),
      },
    },
    spec: {
      podCIDR: '10.244.0.0/24',
      providerID: `kind://docker/navin/${name}`,
      ...(o.controlPlane ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {}),
    },
    status: {
      addresses: [
        { type: 'InternalIP', address: o.address ?? '172.18.0.2' },
        { type: 'Hostname', address: name },
      ],
      capacity: { cpu, memory, pods: '110', 'ephemeral-storage': '102625208Ki', 'hugepages-2Mi': '0' },
      allocatable: { cpu, memory, pods: '110', 'ephemeral-storage': '102625208Ki', 'hugepages-2Mi': '0' },
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          reason: 'KubeletHasSufficientMemory',
          message: 'kubelet has sufficient memory available',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        },
        {
          type: 'DiskPressure',
          status: 'False',
          reason: 'KubeletHasNoDiskPressure',
          message: 'kubelet has no disk pressure',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        },
        {
          type: 'PIDPressure',
          status: 'False',
          reason: 'KubeletHasSufficientPID',
          message: 'kubelet has sufficient PID available',
          lastHeartbeatTime: at,
          lastTransitionTime: at,
        },
        ready
          ? {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
              lastHeartbeatTime: at,
              lastTransitionTime: at,
            }
          : {
              type: 'Ready',
              status: 'False',
              reason: 'KubeletNotReady',
              message: 'container runtime network not ready',
              lastHeartbeatTime: at,
              lastTransitionTime: at,
            },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: `boot-${name}`,
        containerRuntimeVersion: 'containerd://1.7.15',
        kernelVersion: '6.1.0-21-amd64',
        kubeProxyVersion: o.kubeletVersion ?? 'v1.30.0',
        kubeletVersion: o.kubeletVersion ?? 'v1.30.0',
        machineID: `machine-${name}`,
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        systemUUID: `uuid-${name}`,
      },
    },
  };
};

const namespace = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

const coreDns = (): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'coredns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { 'k8s-app': 'kube-dns' } },
    template: {
      metadata: { labels: { 'k8s-app': 'kube-dns' } },
      spec: {
        priorityClassName: 'system-cluster-critical',
        serviceAccountName: 'coredns',
        containers: [
          {
            name: 'coredns',
            image: 'registry.k8s.io/coredns/coredns:v1.11.1',
            args: ['-conf', '/etc/coredns/Corefile'],
            ports: [
              { containerPort: 53, name: 'dns', protocol: 'UDP' },
              { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
            ],
          },
        ],
      },
    },
  },
  status: {
    observedGeneration: 1,
    replicas: 2,
    readyReplicas: 2,
    availableReplicas: 2,
    updatedReplicas: 2,
    conditions: [
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
      {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        message: 'ReplicaSet "coredns-7db6d8ff4d" has successfully progressed.',
      },
    ],
  },
});

/** What startKubeApiServer seeds unless told otherwise (pass `seed` to replace or filter it). */
export const defaultSeed = (): KubeObject[] => [
  ...['default', 'kube-system', 'kube-public', 'kube-node-lease'].map(namespace),
  makeNode('navin-control-plane', { controlPlane: true, address: '172.18.0.2' }),
  makeNode('navin-worker', { address: '172.18.0.3' }),
  makeNode('navin-worker2', { address: '172.18.0.4' }),
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: 'kube-system' } },
  coreDns(),
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kube-dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
    spec: {
      clusterIP: '10.96.0.10',
      selector: { 'k8s-app': 'kube-dns' },
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      ],
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] },
  },
  {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: 'rancher.io/local-path',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  },
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: {
      name: 'nginx',
      annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' },
      labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
    },
    spec: { controller: 'k8s.io/ingress-nginx' },
  },
];

const DEFAULTS = {
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
};
const clusterRole = (name: string, rules: object[], extra: object = {}): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, ...DEFAULTS },
  rules,
  ...extra,
});
const clusterBinding = (name: string, role: string, groups: string[]): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name, ...DEFAULTS },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: groups.map((g) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: g })),
});

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const WORKLOADS = [
  {
    apiGroups: [''],
    resources: [
      'configmaps',
      'endpoints',
      'persistentvolumeclaims',
      'pods',
      'services',
      'serviceaccounts',
      'events',
      'limitranges',
      'resourcequotas',
    ],
  },
  {
    apiGroups: ['apps'],
    resources: ['deployments', 'daemonsets', 'replicasets', 'statefulsets', 'deployments/scale', 'statefulsets/scale', 'replicasets/scale'],
  },
  { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'] },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'] },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'] },
];

/** The bootstrap policy the real server reconciles at start, reduced to the roles tests meet. */
export const builtinRbac = (): KubeObject[] => [
  clusterRole('cluster-admin', [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ]),
  clusterRole('system:discovery', [
    {
      nonResourceURLs: [
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
        '/healthz',
        '/livez',
        '/openapi',
        '/openapi/*',
        '/readyz',
        '/version',
        '/version/',
      ],
      verbs: ['get'],
    },
  ]),
  clusterRole('system:public-info-viewer', [
    { nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] },
  ]),
  clusterRole('system:basic-user', [
    { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] },
    { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
  ]),
  clusterRole(
    'view',
    WORKLOADS.map((r) => ({ ...r, verbs: READ })),
    {},
  ),
  clusterRole('edit', [
    ...WORKLOADS.map((r) => ({ ...r, verbs: [...READ, ...WRITE] })),
    { apiGroups: [''], resources: ['secrets'], verbs: [...READ, ...WRITE] },
  ]),
  clusterRole('admin', [
    ...WORKLOADS.map((r) => ({ ...r, verbs: [...READ, ...WRITE] })),
    { apiGroups: [''], resources: ['secrets'], verbs: [...READ, ...WRITE] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: [...READ, ...WRITE] },
    { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
  ]),
  clusterBinding('cluster-admin', 'cluster-admin', ['system:masters']),
  clusterBinding('system:discovery', 'system:discovery', ['system:authenticated']),
  clusterBinding('system:public-info-viewer', 'system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
  clusterBinding('system:basic-user', 'system:basic-user', ['system:authenticated']),
];
