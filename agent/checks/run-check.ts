// Runs a check by kind and params, as the catalog declares it and a command carries it: the params are judged
// by the wire contract's table first, and whatever happens the caller gets an outcome, never an exception.
import { checkParams, type CheckKind, type CheckOutcome, type CheckParams } from '../../main/wire/service-checks';
import { formatTimestamp } from '../../main/wire/timestamps';
import { etcdClusterCheck, etcdKvCheck } from './etcd';
import { mariadbPingCheck, mariadbPrimaryCheck, mariadbSmokeCheck } from './mariadb';
import { etcdHealthCheck, httpCheck, natsHealthzCheck, tcpCheck } from './liveness';
import { natsJetstreamCheck, natsPubSubCheck } from './nats';
import { nodeExporterMetricsCheck } from './node-exporter';
import { opaPolicyCheck } from './opa';
import { openfgaCheck } from './openfga';
import { errorMessage, type RunCheckOptions } from './outcome';
import { postgresqlPingCheck, postgresqlPrimaryCheck, postgresqlSmokeCheck } from './postgresql';
import { tlsHandshakeCheck } from './tls-handshake';

type Runner<K extends CheckKind> = (params: CheckParams<K>, options: RunCheckOptions) => Promise<CheckOutcome>;

const RUNNERS: { [K in CheckKind]: Runner<K> } = {
  tcp: tcpCheck,
  http: (p, o) => httpCheck(p, o),
  'etcd.health': etcdHealthCheck,
  'nats.healthz': natsHealthzCheck,
  'etcd.cluster': etcdClusterCheck,
  'nats.jetstream': natsJetstreamCheck,
  'etcd.kv': etcdKvCheck,
  'nats.pubsub': natsPubSubCheck,
  'node_exporter.metrics': nodeExporterMetricsCheck,
  'opa.policy': opaPolicyCheck,
  'openfga.check': openfgaCheck,
  'tls.handshake': tlsHandshakeCheck,
  'postgresql.ping': postgresqlPingCheck,
  'postgresql.primary': postgresqlPrimaryCheck,
  'postgresql.smoke': postgresqlSmokeCheck,
  'mariadb.ping': mariadbPingCheck,
  'mariadb.primary': mariadbPrimaryCheck,
  'mariadb.smoke': mariadbSmokeCheck,
};

export async function runCheck(kind: string, params: unknown, options: RunCheckOptions = {}): Promise<CheckOutcome> {
  const started = (options.now ?? (() => new Date()))();
  const judged = checkParams(kind, params);
  const refused = (code: 'kind_unknown' | 'params_invalid' | 'service_error', message: string): CheckOutcome => ({
    kind,
    status: 'fail',
    started_at: formatTimestamp(started),
    duration_ms: 0,
    method: 'not run: the check as declared cannot be run',
    evidence: { params: params ?? null },
    error: { code, message },
  });
  if (!judged.ok) return refused(judged.code, judged.message);
  try {
    return await (RUNNERS[judged.kind] as Runner<CheckKind>)(judged.params, options);
  } catch (error) {
    // Every runner turns failures into outcomes; this is the net under a bug of ours, still not a throw.
    return refused('service_error', `the check itself failed: ${errorMessage(error)}`);
  }
}
