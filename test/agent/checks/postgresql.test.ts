// PostgreSQL's checks against Debian's PostgreSQL 15 on loopback, set up as the catalog sets it up: TLS only
// (hostssl), the check role logging in by its client certificate. They pass and say the session was TLS as the
// server saw it; the functional test leaves no table; another CA fails them as untrusted; a standby fails the
// readiness as not a primary.
import { execFileSync } from 'node:child_process';
import { chownSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';
import { freePorts } from '../../support/services/ports';
import { ServiceProcess, serviceDir, runsAsNobody } from '../../support/services/service-process';
import { writeServiceTls, type ServiceTlsFiles } from '../../support/service-tls';

const BIN = '/usr/lib/postgresql/15/bin';
const NOBODY = 65534;
const dir = serviceDir('navin-postgresql-');
let files: ServiceTlsFiles;
let server: ServiceProcess;
let port = 0;
let data = '';
const asService = runsAsNobody ? { uid: NOBODY, gid: NOBODY } : {};
const params = (tls?: { ca_file: string; cert_file?: string; key_file?: string }) => ({
  host: '127.0.0.1',
  port,
  user: 'navin_check',
  database: 'navin_check',
  ...(tls ? { tls } : {}),
});
const trusted = () => ({ ca_file: files.caFile, cert_file: files.certFile, key_file: files.keyFile });

/** A query as the check role over TLS, outside the checks: to see what they left. */
async function sql<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const c = new pg.Client({
    ...params(),
    ssl: { ca: readFileSync(files.caFile, 'utf8'), cert: readFileSync(files.certFile, 'utf8'), key: readFileSync(files.keyFile, 'utf8') },
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const accepts = (): Promise<boolean> => sql('SELECT 1').then(() => true);

function start(): Promise<void> {
  server = new ServiceProcess('postgresql', join(BIN, 'postgres'), [
    '-D',
    data,
    '-c',
    `port=${port}`,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
  ]);
  return server.start(accepts, 30_000);
}

beforeAll(async () => {
  files = writeServiceTls(dir.path, 'postgresql');
  [port] = (await freePorts(1)) as [number];
  data = dir.sub('data');
  execFileSync(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=reject'], { ...asService, stdio: 'pipe' });
  // The server's own key copy, as LoadCredential= hands it: the service user's, 0600 (PostgreSQL insists).
  const key = join(dir.path, 'server.key');
  copyFileSync(files.keyFile, key);
  if (runsAsNobody) chownSync(key, NOBODY, NOBODY);
  execFileSync('chmod', ['0600', key]);
  writeFileSync(
    join(data, 'postgresql.auto.conf'),
    [`ssl = on`, `ssl_cert_file = '${files.certFile}'`, `ssl_key_file = '${key}'`, `ssl_ca_file = '${files.caFile}'`, ''].join('\n'),
  );
  writeFileSync(join(data, 'pg_hba.conf'), 'hostssl navin_check navin_check 127.0.0.1/32 cert map=navin\n');
  writeFileSync(join(data, 'pg_ident.conf'), 'navin /^(.*)$ navin_check\n');
  execFileSync(join(BIN, 'postgres'), ['--single', '-D', data, 'postgres'], {
    ...asService,
    input: 'CREATE ROLE navin_check LOGIN;\nCREATE DATABASE navin_check OWNER navin_check;\n',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  await start();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  dir.remove();
});

describe('over TLS with the service CA and the client certificate', () => {
  test('liveness connects, SELECT 1, and the server says the session is TLS', async () => {
    const o = await runCheck('postgresql.ping', params(trusted()));
    expect(o.error).toBeUndefined();
    expect(o.status).toBe('pass');
    expect(o.evidence.select_1).toBe(1);
    expect(o.evidence.server_version).toMatch(/^15\./);
    expect((o.evidence.tls as { protocol: string }).protocol).toMatch(/^TLSv1\.[23]$/);
  });

  test('readiness passes on a primary: not in recovery', async () => {
    const o = await runCheck('postgresql.primary', params(trusted()));
    expect(o.status).toBe('pass');
    expect(o.evidence.in_recovery).toBe(false);
  });

  test('the functional test creates, writes, reads back and drops a fresh table', async () => {
    const o = await runCheck('postgresql.smoke', params(trusted()));
    expect(o.error).toBeUndefined();
    expect(o.steps?.map((s) => `${s.name}:${s.status}`)).toEqual([
      'connect:pass',
      'create table:pass',
      'insert:pass',
      'read back:pass',
      'drop table:pass',
    ]);
    expect(o.evidence.table).toMatch(/^navin_smoke_[0-9a-f]{16}$/);
    const again = await runCheck('postgresql.smoke', params(trusted()));
    expect(again.evidence.table).not.toBe(o.evidence.table);
    // Nothing is left behind: the role's database has no smoke table.
    expect(await sql("SELECT tablename FROM pg_tables WHERE tablename LIKE 'navin_smoke_%'")).toEqual([]);
  });

  test('a server certificate of another CA fails as untrusted', async () => {
    const o = await runCheck('postgresql.ping', params({ ca_file: files.otherCaFile, cert_file: files.certFile, key_file: files.keyFile }));
    expect(o.status).toBe('fail');
    expect(o.error?.code).toBe('tls_untrusted');
  });

  test('without TLS the server refuses the check role (hostssl only)', async () => {
    const o = await runCheck('postgresql.ping', params());
    expect(o.status).toBe('fail');
    expect(o.error?.message).toMatch(/pg_hba|no encryption/);
  });
});

test('readiness fails on a standby (in recovery) and the functional test cannot write there', async () => {
  await server.stop();
  writeFileSync(join(data, 'standby.signal'), '');
  if (runsAsNobody) chownSync(join(data, 'standby.signal'), NOBODY, NOBODY);
  await start();
  expect(existsSync(join(data, 'standby.signal'))).toBe(true);
  const o = await runCheck('postgresql.primary', params(trusted()));
  expect(o.status).toBe('fail');
  expect(o.error?.code).toBe('not_primary');
  expect(o.evidence.in_recovery).toBe(true);
  const smoke = await runCheck('postgresql.smoke', params(trusted()));
  expect(smoke.status).toBe('fail');
  expect(smoke.steps?.find((s) => s.name === 'create table')?.status).toBe('fail');
}, 60_000);
