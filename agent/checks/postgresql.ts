// PostgreSQL's checks through node-postgres, as the instance's check role in its own database: liveness
// (connect, SELECT 1), readiness (a primary: not in recovery) and the functional test (a fresh table made,
// written, read back and dropped). With a tls block the server must speak TLS, verified against the CA file.
import pg from 'pg';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { timeoutOf } from './http-call';
import { CheckFailure, runBody, type CheckRun, type RunCheckOptions } from './outcome';
import { sqlPingCheck, sqlSmokeCheck, SQL_SMOKE_PREFIX, withSession, type SqlDialect, type SqlSession } from './sql-checks';
import { loadTls, tlsOptions, trustWords } from './tls-client';

type Params = CheckParams<'postgresql.ping'>;

/** Tables of the functional test: one fresh name per run with this prefix. */
export const POSTGRESQL_SMOKE_PREFIX = SQL_SMOKE_PREFIX;

const target = (p: Params): string => `${p.host ?? '127.0.0.1'}:${p.port}`;

/** Connects as the check role; the evidence records the server's version and, over TLS, the session's as the server sees it. */
async function connect(p: Params, run: CheckRun): Promise<SqlSession> {
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
  const session: SqlSession = {
    rows: async <T>(sql: string, params?: readonly unknown[]) => (await client.query(sql, params as unknown[] | undefined)).rows as T[],
    end: () => client.end(),
  };
  try {
    const [row] = await session.rows<{ version: string; ssl: boolean | null; protocol: string | null; cipher: string | null }>(
      'SELECT current_setting($1) AS version, s.ssl, s.version AS protocol, s.cipher FROM pg_stat_ssl s WHERE s.pid = pg_backend_pid()',
      ['server_version'],
    );
    run.evidence.server_version = row?.version ?? null;
    run.evidence.tls = row?.ssl ? { protocol: row.protocol, cipher: row.cipher } : null;
    if (t && !row?.ssl) throw new CheckFailure('not_tls', `the server says this session to ${target(p)} is not over TLS`);
  } catch (error) {
    await session.end().catch(() => undefined);
    throw error;
  }
  return session;
}

const dialect = (p: Params): SqlDialect => ({
  connect: (run) => connect(p, run),
  method: (what) => `connect to ${target(p)} as ${p.user} in ${p.database}${trustWords(p.tls)}, then ${what}`,
  target: target(p),
  createTable: (table) => `CREATE TABLE ${table} (id integer PRIMARY KEY, value text NOT NULL)`,
  placeholder: '$1',
});

export function postgresqlPingCheck(p: Params, options: RunCheckOptions): Promise<CheckOutcome> {
  return sqlPingCheck('postgresql.ping', dialect(p), options);
}

export function postgresqlPrimaryCheck(p: CheckParams<'postgresql.primary'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const d = dialect(p);
  return runBody('postgresql.primary', d.method('ask pg_is_in_recovery(), false on a primary'), options, (run) =>
    withSession(d, run, async (s) => {
      const [row] = await s.rows<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
      const recovery = row?.recovery;
      run.evidence.in_recovery = recovery ?? null;
      if (recovery !== false) throw new CheckFailure('not_primary', `${target(p)} is in recovery (a standby), not a primary`);
    }),
  );
}

export function postgresqlSmokeCheck(p: CheckParams<'postgresql.smoke'>, options: RunCheckOptions): Promise<CheckOutcome> {
  return sqlSmokeCheck('postgresql.smoke', dialect(p), options);
}
