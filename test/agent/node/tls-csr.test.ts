// tls.csr: the service key made on the host (RSA, 0600, the agent's), a request openssl verifies naming the SANs
// asked, the key kept or rotated as asked, and nothing of the private key in an output, a log line or the state.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { driftScan } from '../../../agent/node/drift-scan';
import { FileStateStore, type NodeState } from '../../../agent/node/file-state';
import { ManagedFs } from '../../../agent/node/managed-fs';
import { NodeExecutor } from '../../../agent/node/plan-executor';
import { runTask, type TaskContext, type TaskDone } from '../../../agent/node/tasks';
import { DEFAULT_MANAGED_ROOTS, type ManagedEntry } from '../../../main/wire/node-agent';
import type { TlsCsrTask } from '../../../main/wire/plan';
import { tempDir } from '../../support/temp-dir';
import { findOpenssl } from '../../main/wire/openssl';

const OPENSSL = findOpenssl();
const KEY = '/etc/navin/etcd/tls/tls.key';
const task = (over: Partial<TlsCsrTask> = {}): TlsCsrTask => ({
  id: 'csr',
  kind: 'tls.csr',
  key_path: KEY,
  common_name: 'etcd.node-1',
  dns_names: ['node-1', 'node-1.site.example'],
  ip_addresses: ['10.0.0.11', 'fd00::11', '::ffff:10.0.0.12'],
  rotate: false,
  ...over,
});
const spkiSha256 = (pem: string): string =>
  createHash('sha256')
    .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }))
    .digest('hex');

describe('tls.csr', () => {
  const dir = tempDir('navin-tls-csr-');
  afterAll(() => dir.remove());
  const realKey = join(dir.path, KEY);
  const ctx = (commandId: string): TaskContext => ({
    fs: new ManagedFs(dir.path, DEFAULT_MANAGED_ROOTS),
    commandId,
    systemctl: 'false',
    runCheck: async () => {
      throw new Error('no check here');
    },
  });
  const files: Record<string, ManagedEntry> = {};
  const apply = (done: TaskDone): void => done.record?.({ managed: { files, units: {} } } as unknown as NodeState);
  const openssl = (args: string[], input: string): string => execFileSync(OPENSSL!, args, { input, encoding: 'utf8' });

  it('writes a 0600 RSA 2048 key and returns a request openssl verifies, with the names asked', async (t) => {
    if (OPENSSL === null) return t.skip('openssl is not installed: cannot verify the request with it');
    const done = await runTask(task(), ctx('c1'));
    apply(done);
    const st = statSync(realKey);
    expect(st.mode & 0o777).toBe(0o600);
    expect(st.uid).toBe(process.getuid!());
    const keyPem = readFileSync(realKey, 'utf8');
    const key = createPrivateKey(keyPem);
    expect([key.asymmetricKeyType, key.asymmetricKeyDetails?.modulusLength]).toEqual(['rsa', 2048]);

    const csr = done.output.csr_pem as string;
    expect(csr).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    // openssl 3.0 exits 0 whatever the verdict: its words are the verdict.
    const verified = spawnSync(OPENSSL, ['req', '-verify', '-noout'], { input: csr, encoding: 'utf8' });
    expect(`${verified.stdout}${verified.stderr}`.trim()).toBe('Certificate request self-signature verify OK');
    const text = openssl(['req', '-noout', '-text'], csr);
    expect(text).toMatch(/Subject: CN\s*=\s*etcd\.node-1\n/);
    const sans = /X509v3 Subject Alternative Name:\s*\n\s*(.+)\n/.exec(text)?.[1]?.trim();
    expect(sans).toBe(
      'DNS:node-1, DNS:node-1.site.example, IP Address:10.0.0.11, IP Address:FD00:0:0:0:0:0:0:11, IP Address:0:0:0:0:0:FFFF:A00:C',
    );
    // The request is for the key on disk, and the output names that key by its public half alone.
    const requested = spkiSha256(openssl(['req', '-pubkey', '-noout'], csr));
    expect(requested).toBe(spkiSha256(keyPem));
    expect(done.output).toEqual({ key_path: KEY, key: 'generated', public_key_sha256: requested, csr_pem: csr });
    // The state records the key like a managed file, by its public key: never a hash of the private key's bytes.
    expect(files[KEY]).toMatchObject({ sha256: requested, command_id: 'c1', private_key: true });
    expect(files[KEY]!.sha256).not.toBe(createHash('sha256').update(keyPem).digest('hex'));
    const json = JSON.stringify({ output: done.output, files });
    expect(json).not.toContain('PRIVATE KEY');
    expect(json).not.toContain(keyPem.split('\n')[1]);
  });

  it('keeps the key unless asked to rotate it, and replaces one others could read', async () => {
    const first = readFileSync(realKey, 'utf8');
    const kept = await runTask(task({ dns_names: ['node-1'] }), ctx('c2'));
    apply(kept);
    expect(kept.output).toMatchObject({ key: 'kept', public_key_sha256: spkiSha256(first) });
    expect(readFileSync(realKey, 'utf8')).toBe(first);
    expect(files[KEY]!.command_id).toBe('c1'); // the key is still the one c1 wrote

    const rotated = await runTask(task({ rotate: true }), ctx('c3'));
    apply(rotated);
    const second = readFileSync(realKey, 'utf8');
    expect(rotated.output).toMatchObject({ key: 'generated', public_key_sha256: spkiSha256(second) });
    expect(spkiSha256(second)).not.toBe(spkiSha256(first));
    expect(files[KEY]).toMatchObject({ sha256: spkiSha256(second), command_id: 'c3' });

    chmodSync(realKey, 0o644);
    const loose = await runTask(task(), ctx('c4'));
    expect(loose.output.key).toBe('generated');
    expect(spkiSha256(readFileSync(realKey, 'utf8'))).not.toBe(spkiSha256(second));
    expect(statSync(realKey).mode & 0o777).toBe(0o600);
    apply(loose);

    // A key the manager could not sign for (not RSA) is not kept either.
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(realKey, ec, { mode: 0o600 });
    const notRsa = await runTask(task(), ctx('c4b'));
    expect(notRsa.output.key).toBe('generated');
    expect(createPrivateKey(readFileSync(realKey, 'utf8')).asymmetricKeyType).toBe('rsa');
    apply(notRsa);
  });

  it('makes drift see a key changed, loosened or gone, and not one a later plan rotated', async () => {
    const state = (): string | undefined => driftScan(dir.path, { files, units: {} }).items.find((i) => i.path === KEY)?.state;
    expect(state()).toBe('ok');
    apply(await runTask(task({ rotate: true }), ctx('c5')));
    expect(state()).toBe('ok');

    chmodSync(realKey, 0o640);
    const loosened = driftScan(dir.path, { files, units: {} }).items.find((i) => i.path === KEY);
    expect(loosened).toMatchObject({ state: 'modified', detail: 'mode 0640, not 0600', observed_sha256: files[KEY]!.sha256 });
    chmodSync(realKey, 0o600);

    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(realKey, other, { mode: 0o600 });
    expect(driftScan(dir.path, { files, units: {} }).items.find((i) => i.path === KEY)).toMatchObject({
      state: 'modified',
      observed_sha256: spkiSha256(other),
    });
    writeFileSync(realKey, 'not a key');
    expect(driftScan(dir.path, { files, units: {} }).items.find((i) => i.path === KEY)).toMatchObject({
      state: 'modified',
      observed_sha256: null,
      detail: 'not a private key',
    });
  });

  it('runs in a plan without the key in a log line, the state file or the receipt, and refuses bad params with their codes', async () => {
    const stateDir = join(dir.path, 'agent-state');
    const store = new FileStateStore(stateDir);
    await store.load();
    const executor = new NodeExecutor({
      state: store,
      fs: new ManagedFs(dir.path, DEFAULT_MANAGED_ROOTS),
      prefix: dir.path,
      systemctl: 'false',
      runCheck: async () => {
        throw new Error('no check here');
      },
      onProgress: async () => undefined,
      onFacts: async () => ({}),
      onManagedChanged: () => undefined,
    });
    const refused = (t: Record<string, unknown>): unknown => {
      const prepared = executor.prepare('p0', 'plan.execute', { tasks: [{ ...task(), ...t }] });
      return prepared.ok ? 'accepted' : prepared.code;
    };
    expect(refused({ key_path: '/root/tls.key' })).toBe('path_not_managed');
    expect(refused({ key_path: '/etc/navin/../root/tls.key' })).toBe('args_invalid');
    expect(refused({ dns_names: ['*.node-1'] })).toBe('args_invalid');
    expect(refused({ ip_addresses: ['10.0.0.256'] })).toBe('args_invalid');
    expect(refused({ rotate: 'yes' })).toBe('args_invalid');
    expect(refused({ mode: '0644' })).toBe('args_invalid');

    const args = { tasks: [task({ id: 'key', rotate: true })] };
    const prepared = executor.prepare('p1', 'plan.execute', args);
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    await store.update((s) => prepared.claim?.(s));
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    let receipt: unknown;
    try {
      receipt = await executor.execute('p1', 'plan.execute', args);
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toContain('task.finished');
    expect(readFileSync(realKey, 'utf8')).toContain('PRIVATE KEY');
    for (const text of [written.join(''), readFileSync(store.file, 'utf8'), JSON.stringify(receipt)])
      expect(text).not.toContain('PRIVATE KEY');
    expect(store.state.managed.files[KEY]).toMatchObject({
      private_key: true,
      command_id: 'p1',
      sha256: spkiSha256(readFileSync(realKey, 'utf8')),
    });
  });
});
