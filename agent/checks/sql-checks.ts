// What the SQL databases' checks share, whatever the client library: a session that is always closed, liveness
// (SELECT 1) and the functional test (a fresh table made, written, read back and dropped, even after a failure).
import type { CheckOutcome } from '../../main/wire/service-checks';
import { toHex } from '../../main/wire/encoding';
import { randomBytes } from '../../main/wire/random';
import { CheckFailure, runBody, type CheckRun, type RunCheckOptions } from './outcome';

/** One connection of a client library, reduced to what the checks ask of it. */
export interface SqlSession {
  rows<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  end(): Promise<void>;
}

/** How one database is reached and spoken to by the shared checks. */
export interface SqlDialect {
  /** Opens a session as the check role; the evidence records the server and, over TLS, the session's protocol. */
  connect(run: CheckRun): Promise<SqlSession>;
  /** "connect to …, then <what>", the method line of every check. */
  method(what: string): string;
  target: string;
  /** The functional test's table, made by this statement. */
  createTable(table: string): string;
  /** The bind parameter's placeholder of the first value ($1, ?). */
  placeholder: string;
}

/** Tables of the functional test: one fresh name per run with this prefix. */
export const SQL_SMOKE_PREFIX = 'navin_smoke_';

/** Runs `body` on a fresh session, closed whatever happens. */
export async function withSession<T>(d: SqlDialect, run: CheckRun, body: (s: SqlSession) => Promise<T>): Promise<T> {
  const s = await d.connect(run);
  try {
    return await body(s);
  } finally {
    await s.end().catch(() => undefined);
  }
}

export function sqlPingCheck(kind: string, d: SqlDialect, options: RunCheckOptions): Promise<CheckOutcome> {
  return runBody(kind, d.method('SELECT 1'), options, (run) =>
    withSession(d, run, async (s) => {
      const r = await s.rows<{ one: number | bigint }>('SELECT 1 AS one');
      if (Number(r[0]?.one) !== 1) throw new CheckFailure('unexpected_response', `SELECT 1 answered ${String(r[0]?.one)}`);
      run.evidence.select_1 = 1;
    }),
  );
}

export function sqlSmokeCheck(kind: string, d: SqlDialect, options: RunCheckOptions): Promise<CheckOutcome> {
  const nonce = toHex(randomBytes(8));
  const table = `${SQL_SMOKE_PREFIX}${nonce}`;
  const value = `navin-${nonce}`;
  const what = `create the table ${table}, insert a fresh value, read it back, then drop the table, even after a failure`;
  return runBody(
    kind,
    d.method(what),
    options,
    async (run) => {
      run.evidence.table = table;
      run.evidence.nonce = nonce;
      const s = await run.step(
        'connect',
        () => d.connect(run),
        () => `connected to ${d.target}`,
      );
      let created = false;
      try {
        await run.step(
          'create table',
          async () => {
            await s.rows(d.createTable(table));
            created = true;
          },
          () => table,
        );
        await run.step(
          'insert',
          () => s.rows(`INSERT INTO ${table} (id, value) VALUES (1, ${d.placeholder})`, [value]),
          () => value,
        );
        await run.step(
          'read back',
          async () => {
            const got = (await s.rows<{ value: string }>(`SELECT value FROM ${table} WHERE id = 1`)).map((x) => x.value);
            run.evidence.read = got;
            if (got.length !== 1 || got[0] !== value)
              throw new CheckFailure('value_mismatch', `read ${JSON.stringify(got)}, wrote ${JSON.stringify(value)}`);
            return got[0];
          },
          (v) => `read ${v}`,
        );
      } finally {
        if (created) await run.cleanup('drop table', async () => void (await s.rows(`DROP TABLE ${table}`)));
        else run.skip('drop table', 'the table was not created');
        await s.end().catch(() => undefined);
      }
    },
    true,
  );
}
