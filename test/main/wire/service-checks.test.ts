// The wire contract of service checks judges params by one table, for the catalog validator and the agents
// alike: every kind has its roles, well-formed params pass, and each kind of mistake is named.
import { expect, test } from 'vitest';
import { CHECK_KINDS, CHECK_PARAM_FIELDS, CHECK_ROLES, checkParams, isCheckKind } from '../../../main/wire/service-checks';
import { runCheck } from '../../../agent/checks';

const EXAMPLES: Record<string, unknown> = {
  tcp: { port: 2379 },
  http: {
    port: 9100,
    path: '/metrics',
    expect_status: 200,
    scheme: 'https',
    ca_file: '/etc/navin/ca.pem',
    host: '198.18.0.10',
    timeout_ms: 1000,
  },
  'etcd.health': {
    port: 2379,
    tls: { ca_file: '/etc/navin/etcd/ca.pem', cert_file: '/etc/navin/etcd/etcd.pem', key_file: '/etc/navin/etcd/etcd-key.pem' },
  },
  'nats.healthz': { monitor_port: 8222 },
  'etcd.cluster': { endpoints: ['http://198.18.0.10:2379', 'http://198.18.0.11:2379'] },
  'nats.jetstream': { monitor_port: 8222, client_port: 4222 },
  'etcd.kv': { endpoints: ['http://127.0.0.1:2379'] },
  'nats.pubsub': {
    endpoints: ['nats://127.0.0.1:4222'],
    jetstream: true,
    tls: { ca_file: '/etc/navin/nats/ca.pem', server_name: 'nats.host-1' },
  },
  'node_exporter.metrics': { url: 'http://127.0.0.1:9100/metrics' },
  'opa.policy': { url: 'http://127.0.0.1:8181' },
  'openfga.check': { url: 'http://127.0.0.1:8080' },
  'tls.handshake': { host: '198.18.0.10', port: 4222, ca_file: '/etc/navin/nats/ca.pem', starttls: 'nats', server_name: 'nats.host-1' },
  'postgresql.ping': { host: '198.18.0.10', port: 5432, user: 'navin_check', database: 'navin_check' },
  'postgresql.primary': { port: 5432, user: 'navin_check', database: 'navin_check', tls: { ca_file: '/etc/navin/postgresql/ca.pem' } },
  'postgresql.smoke': { port: 5432, user: 'navin_check', database: 'navin_check', timeout_ms: 5000 },
  'mariadb.ping': { host: '198.18.0.10', port: 3306, user: 'navin_check', database: 'navin_check' },
  'mariadb.primary': { port: 3306, user: 'navin_check', database: 'navin_check' },
  'mariadb.smoke': {
    port: 3306,
    user: 'navin_check',
    database: 'navin_check',
    tls: { ca_file: '/etc/navin/mariadb/ca.pem', cert_file: '/etc/navin/mariadb/mariadb.pem', key_file: '/etc/navin/mariadb/mariadb.key' },
  },
};

test('every kind has roles and a param table, and a well-formed example of each passes', () => {
  expect(Object.keys(CHECK_KINDS).sort()).toEqual(Object.keys(EXAMPLES).sort());
  expect(Object.keys(CHECK_PARAM_FIELDS).sort()).toEqual(Object.keys(EXAMPLES).sort());
  for (const [kind, params] of Object.entries(EXAMPLES)) {
    expect(isCheckKind(kind)).toBe(true);
    expect(CHECK_KINDS[kind as keyof typeof CHECK_KINDS].every((r) => (CHECK_ROLES as readonly string[]).includes(r))).toBe(true);
    expect(checkParams(kind, params), kind).toMatchObject({ ok: true, kind, params });
  }
  expect(CHECK_KINDS['etcd.kv']).toEqual(['functional']);
  expect(CHECK_KINDS.http).toEqual(['liveness', 'readiness']);
  expect(CHECK_KINDS['tls.handshake']).toEqual(['liveness', 'readiness']);
});

test('each mistake is named: unknown kind, unknown field, missing field, wrong type, out of range, credentials in a URL', () => {
  expect(checkParams('etcd.kvv', {})).toMatchObject({ ok: false, code: 'kind_unknown' });
  expect(checkParams('toString', {})).toMatchObject({ ok: false, code: 'kind_unknown' });
  expect(checkParams('tcp', [])).toMatchObject({ ok: false, code: 'params_invalid' });
  const cases: [string, unknown, RegExp][] = [
    ['tcp', { port: 2379, prot: 1 }, /prot is not a param of tcp/],
    ['http', { port: 80 }, /path is required/],
    ['tcp', { port: 0 }, /port must be a port number/],
    ['tcp', { port: '2379' }, /port must be a port number/],
    ['http', { port: 80, path: 'metrics' }, /path must be a path starting with \//],
    ['http', { port: 80, path: '/', scheme: 'ftp' }, /scheme must be http or https/],
    ['tcp', { port: 1, timeout_ms: 600_000 }, /timeout_ms must be milliseconds/],
    ['http', { port: 443, path: '/', ca_file: 'ca.pem' }, /ca_file must be an absolute file path/],
    ['etcd.cluster', { endpoints: [] }, /endpoints must be 1 to 16/],
    ['etcd.kv', { endpoints: ['http://root:pw@127.0.0.1:2379'] }, /without credentials/],
    ['node_exporter.metrics', { url: 'not a url' }, /url must be an absolute URL/],
    ['nats.pubsub', { endpoints: ['nats://127.0.0.1:4222'], jetstream: 'yes' }, /jetstream must be a boolean/],
    // The tls block: its own fields, judged like the others, named by their path.
    ['etcd.health', { port: 2379, tls: '/etc/ca.pem' }, /tls must be an object/],
    ['etcd.health', { port: 2379, tls: {} }, /tls\.ca_file is required/],
    ['etcd.health', { port: 2379, tls: { ca_file: 'ca.pem' } }, /tls\.ca_file must be an absolute file path/],
    ['etcd.health', { port: 2379, tls: { ca_file: '/ca.pem', verify: false } }, /tls\.verify is not a param of tls/],
    ['etcd.health', { port: 2379, tls: { ca_file: '/ca.pem', cert_file: '/c.pem' } }, /tls\.cert_file and tls\.key_file go together/],
    ['tcp', { port: 2379, tls: { ca_file: '/ca.pem' } }, /tls is not a param of tcp/],
    // What the fields cannot say alone: TLS URLs with a tls block, one way to give http its CA.
    [
      'etcd.kv',
      { endpoints: ['http://127.0.0.1:2379'], tls: { ca_file: '/ca.pem' } },
      /every URL is https:\/\/ \(not http:\/\/127\.0\.0\.1:2379\)/,
    ],
    ['node_exporter.metrics', { url: 'http://127.0.0.1:9100/metrics', tls: { ca_file: '/ca.pem' } }, /every URL is https/],
    ['nats.pubsub', { endpoints: ['http://127.0.0.1:4222'], tls: { ca_file: '/ca.pem' } }, /nats:\/\/ or tls:\/\//],
    ['http', { port: 9100, path: '/', scheme: 'https', ca_file: '/a.pem', tls: { ca_file: '/ca.pem' } }, /ca_file and tls both given/],
    ['http', { port: 9100, path: '/', tls: { ca_file: '/ca.pem' } }, /tls needs scheme https/],
    // tls.handshake: a host, a port and the CA are required; only NATS is upgraded after a greeting.
    ['tls.handshake', { port: 443, ca_file: '/ca.pem' }, /host is required/],
    ['tls.handshake', { host: 'h', port: 443 }, /ca_file is required/],
    ['tls.handshake', { host: 'h', port: 25, ca_file: '/ca.pem', starttls: 'smtp' }, /starttls must be nats/],
    ['tls.handshake', { host: 'h', port: 443, ca_file: '/ca.pem', key_file: '/k.pem' }, /cert_file and key_file go together/],
  ];
  for (const [kind, params, message] of cases) {
    const r = checkParams(kind, params);
    expect(r, JSON.stringify(params)).toMatchObject({ ok: false, code: 'params_invalid' });
    expect(!r.ok && r.message).toMatch(message);
  }
});

test('the agent answers a check it cannot run with a failed outcome, not an exception, and outcomes are plain JSON', async () => {
  const unknown = await runCheck('etcd.kvv', {});
  expect(unknown).toMatchObject({ kind: 'etcd.kvv', status: 'fail', error: { code: 'kind_unknown' } });
  const bad = await runCheck('tcp', { port: 'x' });
  expect(bad).toMatchObject({ status: 'fail', error: { code: 'params_invalid' }, evidence: { params: { port: 'x' } } });
  expect(JSON.parse(JSON.stringify(bad))).toEqual(bad);
  expect(bad.started_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
});
