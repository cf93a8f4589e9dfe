// The service checks the agents run: runCheck(kind, params) for every kind of main/wire/service-checks.ts.
export { runCheck } from './run-check';
export type { RunCheckOptions } from './outcome';
export { ETCD_SMOKE_PREFIX } from './etcd';
export { NATS_SMOKE_PREFIX, NATS_SMOKE_STREAM_PREFIX } from './nats';
export { OPA_SMOKE_PREFIX, opaSmokePolicy } from './opa';
export { OPENFGA_SMOKE_PREFIX, OPENFGA_SMOKE_MODEL } from './openfga';
export { NODE_EXPORTER_REQUIRED } from './node-exporter';
export { POSTGRESQL_SMOKE_PREFIX } from './postgresql';
export { MARIADB_SMOKE_PREFIX } from './mariadb';
