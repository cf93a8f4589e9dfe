// MariaDB's checks through the MariaDB connector, as the instance's check user in its own database: liveness
// (connect, SELECT 1), readiness (a primary: read_only off) and the functional test (a fresh table made,
// written, read back and dropped). With a tls block the server must speak TLS, verified against the CA file.
import { createConnection, type Connection } from 'mariadb';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { toHex } from '../../main/wire/encoding';
import { randomBytes } from '../../main/wire/random';
import { timeoutOf } from './http-call';
import { CheckFailure, runBody, type CheckRun, type RunCheckOptions } from './outcome';
import { loadTls, tlsOptions, trustWords } from './tls-client';

type Params = CheckParams<'mariadb.ping'>;

/** Tables of the functional test: one fresh name per run with this prefix. */
export const MARIADB_SMOKE_PREFIX = 'navin_smoke_';

const target = (p: Params): string => `${p.host ?? '127.0.0.1'}:${p.port}`;

/** Connects as the check user; the evidence records the server's version and, over TLS, the session's as the server sees it. */
async function connect(p: Params, run: CheckRun): Promise<Connection> {
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
  const rows = await conn.query<{ Variable_name: string; Value: string }[]>(
    "SHOW SESSION STATUS WHERE Variable_name IN ('Ssl_version', 'Ssl_cipher')",
  );
  const status: Record<string, string> = Object.fromEntries(
    rows.map((r: { Variable_name: string; Value: string }) => [r.Variable_name, r.Value]),
  );
  run.evidence.server_version = conn.serverVersion();
  run.evidence.tls = status.Ssl_version ? { protocol: status.Ssl_version, cipher: status.Ssl_cipher ?? null } : null;
  if (t && !status.Ssl_version) {
    await conn.end().catch(() => undefined);
    throw new CheckFailure('not_tls', `the server says this session to ${target(p)} is not over TLS`);
  }
  return conn;
}

const method = (p: Params, what: string): string =>
  `connect to ${target(p)} as ${p.user} in ${p.database}${trustWords(p.tls)}, then ${what}`;

export function mariadbPingCheck(p: Params, options: RunCheckOptions): Promise<CheckOutcome> {
  return runBody('mariadb.ping', method(p, 'SELECT 1'), options, async (run) => {
    const conn = await connect(p, run);
    try {
      const r = await conn.query<{ one: number | bigint }[]>('SELECT 1 AS one');
      if (Number(r[0]?.one) !== 1) throw new CheckFailure('unexpected_response', `SELECT 1 answered ${String(r[0]?.one)}`);
      run.evidence.select_1 = 1;
    } finally {
      await conn.end().catch(() => undefined);
    }
  });
}

export function mariadbPrimaryCheck(p: CheckParams<'mariadb.primary'>, options: RunCheckOptions): Promise<CheckOutcome> {
  return runBody('mariadb.primary', method(p, 'read @@read_only, off on a primary'), options, async (run) => {
    const conn = await connect(p, run);
    try {
      const r = await conn.query<{ ro: number | bigint }[]>('SELECT @@global.read_only AS ro');
      const readOnly = r[0] === undefined ? null : Number(r[0].ro) !== 0;
      run.evidence.read_only = readOnly;
      if (readOnly !== false) throw new CheckFailure('not_primary', `${target(p)} is read-only, not a primary`);
    } finally {
      await conn.end().catch(() => undefined);
    }
  });
}

export function mariadbSmokeCheck(p: CheckParams<'mariadb.smoke'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const nonce = toHex(randomBytes(8));
  const table = `${MARIADB_SMOKE_PREFIX}${nonce}`;
  const value = `navin-${nonce}`;
  const what = `create the table ${table}, insert a fresh value, read it back, then drop the table, even after a failure`;
  return runBody(
    'mariadb.smoke',
    method(p, what),
    options,
    async (run) => {
      run.evidence.table = table;
      run.evidence.nonce = nonce;
      const conn = await run.step(
        'connect',
        () => connect(p, run),
        () => `connected to ${target(p)}`,
      );
      let created = false;
      try {
        await run.step(
          'create table',
          async () => {
            await conn.query(`CREATE TABLE ${table} (id INT PRIMARY KEY, value VARCHAR(64) NOT NULL) ENGINE=InnoDB`);
            created = true;
          },
          () => table,
        );
        await run.step(
          'insert',
          () => conn.query(`INSERT INTO ${table} (id, value) VALUES (1, ?)`, [value]),
          () => value,
        );
        await run.step(
          'read back',
          async () => {
            const r = await conn.query<{ value: string }[]>(`SELECT value FROM ${table} WHERE id = 1`);
            const got = r.map((x: { value: string }) => x.value);
            run.evidence.read = got;
            if (got.length !== 1 || got[0] !== value)
              throw new CheckFailure('value_mismatch', `read ${JSON.stringify(got)}, wrote ${JSON.stringify(value)}`);
            return got[0];
          },
          (v) => `read ${v}`,
        );
      } finally {
        if (created) await run.cleanup('drop table', async () => void (await conn.query(`DROP TABLE ${table}`)));
        else run.skip('drop table', 'the table was not created');
        await conn.end().catch(() => undefined);
      }
    },
    true,
  );
}
