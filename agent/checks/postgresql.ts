// PostgreSQL's checks through node-postgres, as the instance's check role in its own database: liveness
// (connect, SELECT 1), readiness (a primary: not in recovery) and the functional test (a fresh table made,
// written, read back and dropped). With a tls block the server must speak TLS, verified against the CA file.
import pg from 'pg';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { toHex } from '../../main/wire/encoding';
import { randomBytes } from '../../main/wire/random';
import { timeoutOf } from './http-call';
import { CheckFailure, runBody, type CheckRun, type RunCheckOptions } from './outcome';
import { loadTls, tlsOptions, trustWords } from './tls-client';

type Params = CheckParams<'postgresql.ping'>;

/** Tables of the functional test: one fresh name per run with this prefix. */
export const POSTGRESQL_SMOKE_PREFIX = 'navin_smoke_';

const target = (p: Params): string => `${p.host ?? '127.0.0.1'}:${p.port}`;

/** Connects as the check role; the evidence records the server's version and, over TLS, the session's as the server sees it. */
async function connect(p: Params, run: CheckRun): Promise<pg.Client> {
  const host = p.host ?? '127.0.0.1';
  const timeout = timeoutOf(p);
  const t = p.tls ? await loadTls(p.tls) : undefined;
  const client = new pg.Client({
    host,
    port: p.port,
    user: p.user,
    database: p.database,
    connectionTimeoutMillis: timeout,
    query_timeout: timeout,
    // node-postgres refuses to go on in plaintext when the server answers the TLS request with "no".
    ssl: t ? tlsOptions(t, host) : false,
  });
  // An error after connect (the server gone) must not be an uncaught event: the pending query fails with it.
  client.on('error', () => undefined);
  run.evidence.target = target(p);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    if (/does not support SSL/i.test((error as Error).message))
      throw new CheckFailure('not_tls', `${target(p)} answered the TLS request in plaintext: ${(error as Error).message}`);
    throw error;
  }
  const about = await client.query<{ version: string; ssl: boolean | null; protocol: string | null; cipher: string | null }>(
    'SELECT current_setting($1) AS version, s.ssl, s.version AS protocol, s.cipher FROM pg_stat_ssl s WHERE s.pid = pg_backend_pid()',
    ['server_version'],
  );
  const row = about.rows[0];
  run.evidence.server_version = row?.version ?? null;
  run.evidence.tls = row?.ssl ? { protocol: row.protocol, cipher: row.cipher } : null;
  if (t && !row?.ssl) throw new CheckFailure('not_tls', `the server says this session to ${target(p)} is not over TLS`);
  return client;
}

const method = (p: Params, what: string): string =>
  `connect to ${target(p)} as ${p.user} in ${p.database}${trustWords(p.tls)}, then ${what}`;

export function postgresqlPingCheck(p: Params, options: RunCheckOptions): Promise<CheckOutcome> {
  return runBody('postgresql.ping', method(p, 'SELECT 1'), options, async (run) => {
    const client = await connect(p, run);
    try {
      const r = await client.query<{ one: number }>('SELECT 1 AS one');
      if (r.rows[0]?.one !== 1) throw new CheckFailure('unexpected_response', `SELECT 1 answered ${JSON.stringify(r.rows)}`);
      run.evidence.select_1 = 1;
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

export function postgresqlPrimaryCheck(p: CheckParams<'postgresql.primary'>, options: RunCheckOptions): Promise<CheckOutcome> {
  return runBody('postgresql.primary', method(p, 'ask pg_is_in_recovery(), false on a primary'), options, async (run) => {
    const client = await connect(p, run);
    try {
      const r = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
      const recovery = r.rows[0]?.recovery;
      run.evidence.in_recovery = recovery ?? null;
      if (recovery !== false) throw new CheckFailure('not_primary', `${target(p)} is in recovery (a standby), not a primary`);
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

export function postgresqlSmokeCheck(p: CheckParams<'postgresql.smoke'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const nonce = toHex(randomBytes(8));
  const table = `${POSTGRESQL_SMOKE_PREFIX}${nonce}`;
  const value = `navin-${nonce}`;
  const what = `create the table ${table}, insert a fresh value, read it back, then drop the table, even after a failure`;
  return runBody(
    'postgresql.smoke',
    method(p, what),
    options,
    async (run) => {
      run.evidence.table = table;
      run.evidence.nonce = nonce;
      const client = await run.step(
        'connect',
        () => connect(p, run),
        () => `connected to ${target(p)}`,
      );
      let created = false;
      try {
        await run.step(
          'create table',
          async () => {
            await client.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, value text NOT NULL)`);
            created = true;
          },
          () => table,
        );
        await run.step(
          'insert',
          () => client.query(`INSERT INTO ${table} (id, value) VALUES (1, $1)`, [value]),
          () => value,
        );
        await run.step(
          'read back',
          async () => {
            const r = await client.query<{ value: string }>(`SELECT value FROM ${table} WHERE id = 1`);
            const got = r.rows.map((x) => x.value);
            run.evidence.read = got;
            if (got.length !== 1 || got[0] !== value)
              throw new CheckFailure('value_mismatch', `read ${JSON.stringify(got)}, wrote ${JSON.stringify(value)}`);
            return got[0];
          },
          (v) => `read ${v}`,
        );
      } finally {
        if (created) await run.cleanup('drop table', async () => void (await client.query(`DROP TABLE ${table}`)));
        else run.skip('drop table', 'the table was not created');
        await client.end().catch(() => undefined);
      }
    },
    true,
  );
}
