// The kinds of service checks (liveness per instance, readiness per service, the functional test run by
// `smoke.run`): the names the catalog declares and the agents execute. The checks themselves live with the agents.

export const LIVENESS_KINDS = ['tcp', 'http', 'etcd.health', 'nats.healthz'] as const;
export const READINESS_KINDS = ['etcd.cluster', 'nats.jetstream', 'http'] as const;
export const FUNCTIONAL_KINDS = ['etcd.kv', 'nats.pubsub', 'node_exporter.metrics', 'opa.policy', 'openfga.check'] as const;

export type LivenessKind = (typeof LIVENESS_KINDS)[number];
export type ReadinessKind = (typeof READINESS_KINDS)[number];
export type FunctionalKind = (typeof FUNCTIONAL_KINDS)[number];

/** The parameters of each kind: what a declaration must give and what it may add. */
export const CHECK_PARAMS: Readonly<
  Record<LivenessKind | ReadinessKind | FunctionalKind, { required: readonly string[]; optional: readonly string[] }>
> = {
  tcp: { required: ['port'], optional: [] },
  http: { required: ['port', 'path'], optional: ['expect_status', 'scheme'] },
  'etcd.health': { required: ['port'], optional: [] },
  'nats.healthz': { required: ['monitor_port'], optional: [] },
  'etcd.cluster': { required: ['endpoints'], optional: [] },
  'nats.jetstream': { required: ['monitor_port', 'client_port'], optional: [] },
  'etcd.kv': { required: ['endpoints'], optional: [] },
  'nats.pubsub': { required: ['endpoints'], optional: [] },
  'node_exporter.metrics': { required: ['url'], optional: [] },
  'opa.policy': { required: ['url'], optional: [] },
  'openfga.check': { required: ['url'], optional: [] },
};
