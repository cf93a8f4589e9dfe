// A store with the certificates domain's migration, a protector, and CSRs made by openssl as a host would make
// them. The cluster and host rows the ledger's foreign keys need are written straight into their tables, so these
// tests depend on the schema only, not on the services that own those rows.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AesKeyProtector } from '../../../../main/core/keys/protector';
import { migrations } from '../../../../main/core/store/migrations';
import { Store } from '../../../../main/core/store/store';
import { certificatesMigrations } from '../../../../main/core/certificates/migrations';
import type { Clock } from '../../../../main/core/clock';

export const testProtector = (): AesKeyProtector => {
  const key = randomBytes(32);
  return new AesKeyProtector('test', () => key);
};

export const openCertificatesStore = (file: string, clock: Clock): Store =>
  Store.open(file, clock, [...migrations, ...certificatesMigrations]);

export function addCluster(store: Store, name: string): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  store.db
    .prepare("INSERT INTO clusters (id, name, kind, tenant, state, created_at, updated_at) VALUES (?, ?, 'hosts', 't', 'pending', ?, ?)")
    .run(id, name, at, at);
  return id;
}

export function addHost(store: Store, clusterId: string, name: string, address: string): string {
  const id = randomUUID();
  store.db
    .prepare('INSERT INTO hosts (id, cluster_id, name, address, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(id, clusterId, name, address, new Date().toISOString());
  return id;
}

/**
 * A CSR made by `openssl req` in `dir` with a fresh key (RSA 2048 unless `key` gives openssl's -newkey and
 * -pkeyopt arguments), asking for `subject` and `sans` (openssl's syntax).
 */
export function opensslCsr(
  dir: string,
  opts: { key?: string[]; subject?: string; sans?: string } = {},
): { csrPem: string; keyFile: string } {
  const tag = randomBytes(4).toString('hex');
  const keyFile = join(dir, `${tag}.key`);
  const csrFile = join(dir, `${tag}.csr`);
  execFileSync(
    'openssl',
    [
      'req',
      '-new',
      ...(opts.key ?? ['-newkey', 'rsa:2048']),
      '-nodes',
      '-keyout',
      keyFile,
      '-subj',
      opts.subject ?? '/CN=evil.example',
      ...(opts.sans ? ['-addext', `subjectAltName=${opts.sans}`] : []),
      '-out',
      csrFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { csrPem: readFileSync(csrFile, 'utf8'), keyFile };
}

/** openssl verify's verdict on `certPem` against `caPem` at `at`, for a purpose (sslserver, sslclient). */
export function opensslVerify(dir: string, caPem: string, certPem: string, at: Date, purpose?: string): string {
  const tag = randomBytes(4).toString('hex');
  const ca = join(dir, `${tag}-ca.pem`);
  const cert = join(dir, `${tag}-cert.pem`);
  writeFileSync(ca, caPem);
  writeFileSync(cert, certPem);
  const args = [
    'verify',
    '-attime',
    String(Math.floor(at.getTime() / 1000)),
    ...(purpose ? ['-purpose', purpose] : []),
    '-CAfile',
    ca,
    cert,
  ];
  try {
    return execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}`.trim();
  }
}
