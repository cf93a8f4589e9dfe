// etcd readiness (every member healthy, one leader all agree on, one member list) and the functional test
// (put, get, delete of a fresh key), through etcd's own gRPC API with the etcd3 client.
import { Etcd3, type IStatusResponse, type IMemberListResponse } from 'etcd3';
import { noop } from 'cockatiel';
import type { CheckErrorCode, CheckOutcome, CheckParams, TlsHandshakeEvidence } from '../../main/wire/service-checks';
import { toHex } from '../../main/wire/encoding';
import { randomBytes } from '../../main/wire/random';
import { getOverTls, httpCall, joinUrl, shortBody, timeoutOf } from './http-call';
import { CheckFailure, classifyError, errorMessage, runBody, type RunCheckOptions } from './outcome';
import { loadTls, tlsOptions, trustWords, type LoadedTls } from './tls-client';
import { clockOf, handshake, tlsGate, urlTargets, verdictCode } from './tls-handshake';

/** Keys of the functional test live under this prefix, one fresh key per run. */
export const ETCD_SMOKE_PREFIX = 'navin/smoke/';

// No retries and no circuit breaker: a check reports what one bounded attempt saw, and each call has its own
// deadline so a member that accepts the connection but never answers cannot hold the check. gRPC would
// otherwise dial through http_proxy / https_proxy from the environment: a check reaches the member directly.
// With TLS, gRPC trusts the block's CA only and shows its client certificate (etcd's client-cert-auth).
function client(hosts: string[], timeoutMs: number, t: LoadedTls | undefined): Etcd3 {
  const name = t?.serverName;
  return new Etcd3({
    hosts,
    dialTimeout: timeoutMs,
    ...(t
      ? {
          credentials: {
            rootCertificate: Buffer.from(t.ca),
            ...(t.cert && t.key ? { certChain: Buffer.from(t.cert), privateKey: Buffer.from(t.key) } : {}),
          },
        }
      : {}),
    grpcOptions: {
      'grpc.enable_http_proxy': 0,
      ...(name ? { 'grpc.ssl_target_name_override': name, 'grpc.default_authority': name } : {}),
    },
    faultHandling: { host: () => noop, global: noop },
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeoutMs }),
  });
}

/** etcd prints member ids in hex (etcdctl member list); the gRPC API gives them as decimal uint64 strings. */
const hexId = (id: string | undefined): string => (id && /^\d+$/.test(id) ? BigInt(id).toString(16) : String(id));

interface EndpointReport {
  endpoint: string;
  health?: string;
  member_id?: string;
  leader?: string;
  raft_term?: string;
  version?: string;
  db_size?: string;
  errors?: string[];
  error?: string;
  tls?: TlsHandshakeEvidence;
}

interface Probe {
  report: EndpointReport;
  /** How the status call failed, when it did. */
  failure?: CheckErrorCode;
  members?: IMemberListResponse['members'];
}

async function probe(endpoint: string, timeoutMs: number, t: LoadedTls | undefined, now: Date): Promise<Probe> {
  const report: EndpointReport = { endpoint };
  let failure: CheckErrorCode | undefined;
  const [target] = urlTargets([endpoint]);
  if (t) {
    // The handshake judged first: a certificate or a refusal is named as such, not as gRPC's "unavailable".
    const hs = await handshake(target!, t, timeoutMs, now);
    report.tls = hs.evidence;
    if (hs.verdict !== 'ok' && hs.verdict !== 'expiring' && hs.verdict !== 'unreachable') {
      report.error = hs.message;
      return { report, failure: verdictCode(hs) };
    }
  }
  const healthUrl = joinUrl(endpoint, '/health');
  const c = client([endpoint], timeoutMs, t);
  try {
    const [health, status, list] = await Promise.allSettled([
      t ? getOverTls(healthUrl, timeoutMs, tlsOptions(t, target!.host)) : httpCall('GET', healthUrl, timeoutMs),
      c.maintenance.status(),
      c.cluster.memberList({}),
    ]);
    if (health.status === 'fulfilled') {
      const h = (health.value.json as { health?: unknown } | undefined)?.health;
      report.health = typeof h === 'string' ? h : `HTTP ${health.value.status}: ${shortBody(health.value.text)}`;
    } else report.health = `unreachable: ${errorMessage(health.reason)}`;
    if (status.status === 'fulfilled') {
      const s: IStatusResponse = status.value;
      report.member_id = hexId(s.header.member_id);
      report.leader = hexId(s.leader);
      report.raft_term = s.raftTerm;
      report.version = s.version;
      report.db_size = s.dbSize;
      if (s.errors?.length) report.errors = s.errors;
    } else {
      report.error = errorMessage(status.reason);
      failure = classifyError(status.reason);
    }
    const members = list.status === 'fulfilled' ? list.value.members : undefined;
    if (list.status === 'rejected' && !report.error) report.error = errorMessage(list.reason);
    return { report, ...(members ? { members } : {}), ...(failure ? { failure } : {}) };
  } finally {
    c.close();
  }
}

export function etcdClusterCheck(p: CheckParams<'etcd.cluster'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const timeout = timeoutOf(p);
  const method =
    `on each of ${p.endpoints.join(', ')} and every member the member list names: GET /health, Maintenance.Status ` +
    `and Cluster.MemberList over gRPC; ready when every member is healthy, all agree on one leader and on the member list` +
    (p.tls ? `; each member's TLS handshake judged first${trustWords(p.tls)}` : '');
  return runBody('etcd.cluster', method, options, async (run) => {
    const now = clockOf(options);
    const t = p.tls ? await loadTls(p.tls) : undefined;
    const probes = new Map<string, Probe>();
    await Promise.all(p.endpoints.map(async (e) => probes.set(e, await probe(e, timeout, t, now))));
    const lists = [...probes.values()].filter((x) => x.members);
    const members = lists[0]?.members ?? [];
    // A member the endpoints do not cover is probed on its advertised client URL: "every member" means the
    // cluster's, not just the ones the catalog happened to list.
    const covered = new Set([...probes.values()].map((x) => x.report.member_id).filter(Boolean));
    await Promise.all(
      members
        .filter((m) => !covered.has(hexId(m.ID)) && m.clientURLs[0] && !probes.has(m.clientURLs[0]))
        .map(async (m) => probes.set(m.clientURLs[0]!, await probe(m.clientURLs[0]!, timeout, t, now))),
    );
    const reports = [...probes.values()].map((x) => x.report);
    run.evidence.endpoints = reports;
    if (t) run.evidence.tls = reports.flatMap((r) => (r.tls ? [r.tls] : []));
    const tlsBad = [...probes.values()].find((x) => x.report.tls && x.failure && x.failure !== 'unreachable' && x.failure !== 'timeout');
    if (tlsBad) throw new CheckFailure(tlsBad.failure!, `${tlsBad.report.endpoint}: ${tlsBad.report.error}`);
    const byId = new Map(reports.filter((r) => r.member_id && !r.error).map((r) => [r.member_id!, r]));
    const memberRows = members.map((m) => {
      const r = byId.get(hexId(m.ID));
      return { id: hexId(m.ID), name: m.name, client_urls: m.clientURLs, learner: m.isLearner, healthy: r?.health === 'true' };
    });
    run.evidence.members = memberRows;

    if (lists.length === 0) {
      const first = [...probes.values()].find((x) => x.report.error);
      throw new CheckFailure(first?.failure ?? 'unreachable', `no endpoint answered: ${first?.report.error ?? 'no endpoint'}`);
    }
    const idsOf = (x: Probe) =>
      (x.members ?? [])
        .map((m) => hexId(m.ID))
        .sort()
        .join(',');
    const views = new Set(lists.map(idsOf));
    if (views.size > 1) {
      throw new CheckFailure(
        'member_list_mismatch',
        `the endpoints disagree on the member list: ${[...views].map((v) => `[${v}]`).join(' vs ')}`,
      );
    }
    const leaders = new Set(reports.filter((r) => r.leader !== undefined).map((r) => r.leader));
    run.evidence.leader = [...leaders].length === 1 ? (memberRows.find((m) => m.id === [...leaders][0]) ?? [...leaders][0]) : [...leaders];
    if (leaders.has('0') || leaders.size === 0) throw new CheckFailure('no_leader', 'a member reports no leader');
    if (leaders.size > 1) throw new CheckFailure('leader_mismatch', `the members name different leaders: ${[...leaders].join(', ')}`);
    const down = memberRows.filter((m) => !m.healthy);
    if (down.length > 0) {
      const why = down.map((m) => {
        const r = reports.find((x) => x.member_id === m.id) ?? reports.find((x) => m.client_urls.includes(x.endpoint));
        return `${m.name || m.id} (${r?.error ?? r?.health ?? 'not probed'})`;
      });
      throw new CheckFailure('member_unhealthy', `${down.length} of ${memberRows.length} members not healthy: ${why.join('; ')}`);
    }
    const unreachable = reports.filter((r) => r.error);
    if (unreachable.length > 0) {
      throw new CheckFailure(
        'member_unhealthy',
        `endpoint not answering: ${unreachable.map((r) => `${r.endpoint} (${r.error})`).join('; ')}`,
      );
    }
  });
}

export function etcdKvCheck(p: CheckParams<'etcd.kv'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const timeout = timeoutOf(p);
  const nonce = toHex(randomBytes(16));
  const key = `${ETCD_SMOKE_PREFIX}${nonce}`;
  const value = `navin-smoke-${nonce}`;
  const method =
    `put a fresh key ${key} through ${p.endpoints.join(', ')}, read it back (linearizable), delete it; the delete runs even after a failure` +
    (p.tls ? `; each endpoint's TLS handshake judged first${trustWords(p.tls)}` : '');
  return runBody(
    'etcd.kv',
    method,
    options,
    async (run) => {
      run.evidence.key = key;
      run.evidence.nonce = nonce;
      const t = p.tls ? await loadTls(p.tls) : undefined;
      if (t) await tlsGate(run, t, urlTargets(p.endpoints), timeout, clockOf(options));
      const c = client(p.endpoints, timeout, t);
      try {
        const put = await run.step(
          'put',
          () => c.put(key).value(value).exec(),
          (r) => `revision ${r.header.revision}`,
        );
        run.evidence.put_revision = put.header.revision;
        await run.step(
          'get',
          async () => {
            const got = await c.get(key).string();
            run.evidence.read = got;
            if (got !== value) throw new CheckFailure('value_mismatch', `read ${JSON.stringify(got)} back, wrote ${JSON.stringify(value)}`);
            return got;
          },
          (v) => `read ${JSON.stringify(v)}`,
        );
      } finally {
        // Always attempted, even when the put seemed to fail: a put that timed out may still have been applied.
        await run.cleanup('delete', async () => {
          const r = await c.delete().key(key).exec();
          run.evidence.deleted = Number(r.deleted);
          return `deleted ${r.deleted} key(s)`;
        });
        c.close();
      }
    },
    true,
  );
}
