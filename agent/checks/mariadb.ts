// MariaDB's checks through the MariaDB connector, as the instance's check user in its own database: liveness
// (connect, SELECT 1), readiness (a primary: read_only off) and the functional test (a fresh table made,
// written, read back and dropped). With a tls block the server must speak TLS, verified against the CA file.
import { createConnection, type Connection } from 'mariadb';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { timeoutOf } from './http-call';
import { CheckFailure, runBody, type CheckRun, type RunCheckOptions } from './outcome';
import { sqlPingCheck, sqlSmokeCheck, SQL_SMOKE_PREFIX, withSession, type SqlDialect, type SqlSession } from './sql-checks';
import { loadTls, tlsOptions, trustWords } from './tls-client';

type Params = CheckParams<'mariadb.ping'>;

/** Tables of the functional test: one fresh name per run with this prefix. */
export const MARIADB_SMOKE_PREFIX = SQL_SMOKE_PREFIX;

const target = (p: Params): string => `${p.host ?? '127.0.0.1'}:${p.port}`;

/** Connects as the check user; the evidence records the server's version and, over TLS, the session's as the server sees it. */
async function connect(p: Params, run: CheckRun): Promise<SqlSession> {
  const host = p.host ?? '127.0.0.1';
  const timeout = timeoutOf(p);
  const t = p.tls ? await loadTls(p.tls) : undefined;
  run.evidence.target = target(p);
  let conn: Connection;
  try {
    conn = await createConnection({
      host,
      port: p.port,
      user: p.user,
      database: p.database,
      connectTimeout: timeout,
      queryTimeout: timeout,
      // The connector refuses to go on in plaintext when asked for TLS and the server offers none.
      ...(t ? { ssl: tlsOptions(t, host) } : {}),
    });
  } catch (error) {
    if (t && /doesn't permit SSL|not support SSL|SSL not enabled/i.test((error as Error).message))
      throw new CheckFailure('not_tls', `${target(p)} offers no TLS: ${(error as Error).message}`);
    throw error;
  }
  const open = conn;
  const session: SqlSession = {
    rows: <T>(sql: string, params?: readonly unknown[]) => open.query<T[]>(sql, params),
    end: () => open.end(),
  };
  try {
    const rows = await session.rows<{ Variable_name: string; Value: string }>(
      "SHOW SESSION STATUS WHERE Variable_name IN ('Ssl_version', 'Ssl_cipher')",
    );
    const status: Record<string, string> = Object.fromEntries(rows.map((r) => [r.Variable_name, r.Value]));
    run.evidence.server_version = conn.serverVersion();
    run.evidence.tls = status.Ssl_version ? { protocol: status.Ssl_version, cipher: status.Ssl_cipher ?? null } : null;
    if (t && !status.Ssl_version) throw new CheckFailure('not_tls', `the server says this session to ${target(p)} is not over TLS`);
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
  createTable: (table) => `CREATE TABLE ${table} (id INT PRIMARY KEY, value VARCHAR(64) NOT NULL) ENGINE=InnoDB`,
  placeholder: '?',
});

export function mariadbPingCheck(p: Params, options: RunCheckOptions): Promise<CheckOutcome> {
  return sqlPingCheck('mariadb.ping', dialect(p), options);
}

export function mariadbPrimaryCheck(p: CheckParams<'mariadb.primary'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const d = dialect(p);
  return runBody('mariadb.primary', d.method('read @@read_only, off on a primary'), options, (run) =>
    withSession(d, run, async (s) => {
      const [row] = await s.rows<{ ro: number | bigint }>('SELECT @@global.read_only AS ro');
      const readOnly = row === undefined ? null : Number(row.ro) !== 0;
      run.evidence.read_only = readOnly;
      if (readOnly !== false) throw new CheckFailure('not_primary', `${target(p)} is read-only, not a primary`);
    }),
  );
}

export function mariadbSmokeCheck(p: CheckParams<'mariadb.smoke'>, options: RunCheckOptions): Promise<CheckOutcome> {
  return sqlSmokeCheck('mariadb.smoke', dialect(p), options);
}
