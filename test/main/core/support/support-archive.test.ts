// The support archive: every kind of secret planted in configs, logs and names is absent from the unpacked
// archive, MANIFEST.json counts exactly what was planted, operators are pseudonyms stable within one archive and
// different across two, and an archive whose redactor failed is not marked redacted.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import { luhnValid, zeroCounts, type RedactionCounts } from '../../../../main/core/support/redact';
import { buildSupportArchive, MANIFEST_FILE, previewArchive, type SupportEntry } from '../../../../main/core/support/support-archive';
import { supportManifestSchema } from '../../../../main/contract/support';
import { tempDir } from '../../../support/temp-dir';

const SECRET = 'Vault-Pass-91zq';
const PEM = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const RAW_KEY = 'a3f1'.repeat(16);
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWhlcmU';
const GH_TOKEN = 'ghp_Zk81LmQ0aR5sT7uV9wX2yB4cD6eF8gH0iJ2k';
const BEARER = 'Qm9vdHN0cmFwLXRva2VuLTEy';
/** A shape only the maintained preset knows (the console's rules want 40 characters after the prefix). */
const LINEAR_KEY = `lin_api_${'Lq7rT2xw9ZkP4mNc'.repeat(4)}`;
const URL_PASSWORD = 'Xy9pQ2mnTr';
const PAIR_PASSWORD = 'hunter2-db';
const EMAIL = 'alice.durand@example.org';
const PHONE_INTL = '+33 6 12 34 56 78';
const PHONE_NATIONAL = '01 42 68 53 00';
const CARD = '4111 1111 1111 1111';
const NOT_A_CARD = '4111 1111 1111 1112';
const LOG_IPV4 = '198.18.0.12';
const LOG_IPV6 = '2001:db8::7';
const CONFIG_IP = '198.19.4.20';
const USERS = ['alice', 'bob.martin'];

/** Each value planted, and the kind it must be counted as. */
const planted: [string, keyof RedactionCounts, number][] = [
  [SECRET, 'secret', 3],
  [PEM.trim(), 'private_key', 1],
  [RAW_KEY, 'private_key', 1],
  [JWT, 'token', 1],
  [GH_TOKEN, 'token', 1],
  [LINEAR_KEY, 'token', 1],
  [BEARER, 'credential', 1], // an Authorization header's value, whatever its scheme
  [URL_PASSWORD, 'credential', 1],
  [PAIR_PASSWORD, 'credential', 1],
  [EMAIL, 'email', 1],
  [PHONE_INTL, 'phone', 1],
  [PHONE_NATIONAL, 'phone', 1],
  [CARD, 'card', 1],
  [LOG_IPV4, 'ip', 2],
  [LOG_IPV6, 'ip', 1],
];

function entries(): SupportEntry[] {
  return [
    { path: 'cluster/cluster.json', kind: 'data', content: JSON.stringify({ name: 'edge-1', created_by: 'alice' }, null, 2) },
    {
      path: 'configs/host-1/etc/app/app.conf',
      kind: 'config',
      content: [
        `listen ${CONFIG_IP}:5432`,
        `db_password = ${PAIR_PASSWORD}`,
        `upstream postgres://app:${URL_PASSWORD}@db.internal/app`,
        `vault_token_file_content ${SECRET}`,
        `signing_key: ${RAW_KEY}`,
        PEM,
        `owner ${EMAIL}`,
        `not a card ${NOT_A_CARD}`,
        'bypass_cache on',
      ].join('\n'),
    },
    {
      path: 'journal/host-1/app.service.log',
      kind: 'log',
      content: [
        `Dec 04 03:25:10 host-1 app[812]: connection from ${LOG_IPV4} port 51234`,
        `Dec 04 03:25:11 host-1 app[812]: Authorization: Bearer ${BEARER}`,
        `Dec 04 03:25:12 host-1 app[812]: user alice logged in with ${JWT}`,
        `Dec 04 03:25:13 host-1 app[812]: call ${PHONE_INTL} or ${PHONE_NATIONAL}, card ${CARD}`,
        `Dec 04 03:25:14 host-1 app[812]: bob.martin pushed ${GH_TOKEN} from ${LOG_IPV6} and ${LOG_IPV4}`,
        `Dec 04 03:25:15 host-1 app[812]: vault unsealed with ${SECRET}`,
        `Dec 04 03:25:16 host-1 app[812]: issues synced with ${LINEAR_KEY}`,
      ].join('\n'),
    },
    { path: `operations/alice-${SECRET}.json`, kind: 'data', content: JSON.stringify([{ actor: 'alice', action: 'plan.execute' }]) },
  ];
}

async function unpack(file: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      files.set(header.name, Buffer.concat(chunks));
      next();
    });
  });
  await pipeline(createReadStream(file), createGunzip(), extract);
  return files;
}

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

function outDir(): string {
  const d = tempDir('navin-support-');
  dirs.push(d);
  return d.path;
}

const redaction = { secrets: [SECRET], userNames: USERS };

describe('support archive', () => {
  it('finds none of the planted secrets in the unpacked archive and counts exactly what was planted', async () => {
    const dir = outDir();
    const out = join(dir, 'support.tar.gz');
    const result = await buildSupportArchive(entries(), { out, redaction });
    const files = await unpack(out);
    const all = [...files.entries()].map(([name, body]) => `${name}\n${body.toString()}`).join('\n');
    for (const [value] of planted) expect(all, value).not.toContain(value);
    for (const name of USERS) expect(all).not.toMatch(new RegExp(`(?<![\\w.-])${name.replace('.', '\\.')}(?![\\w-])`));
    expect(all).toContain(CONFIG_IP); // a config's address is its topology, kept
    expect(all).toContain(NOT_A_CARD); // fails the Luhn check, kept
    expect(all).toContain('bypass_cache on');

    const manifest = supportManifestSchema.parse(JSON.parse(files.get(MANIFEST_FILE)!.toString()));
    const expected = zeroCounts();
    for (const [, kind, n] of planted) expected[kind] += n;
    expected.user_name = 5; // alice ×4 (cluster, log, operation name and body), bob.martin ×1
    expect(manifest.replacements).toEqual(expected);
    expect(manifest.redacted).toBe(true);
    expect(result.manifest).toEqual(manifest);
    expect(manifest.files.map((f) => f.path).sort()).toEqual([...files.keys()].filter((n) => n !== MANIFEST_FILE).sort());
    for (const f of manifest.files) {
      expect(createHash('sha256').update(files.get(f.path)!).digest('hex')).toBe(f.sha256);
    }
    expect(readdirSync(dir)).toEqual(['support.tar.gz']);
  });

  it('gives an operator one pseudonym throughout an archive and another in the next archive', async () => {
    const dir = outDir();
    const pseudonyms = async (name: string): Promise<Set<string>> => {
      const out = join(dir, name);
      await buildSupportArchive(entries(), { out, redaction });
      const files = await unpack(out);
      const found = new Set<string>();
      for (const file of ['cluster/cluster.json', 'journal/host-1/app.service.log']) {
        const text = files.get(file)!.toString();
        const line = file.endsWith('.log') ? text.split('\n')[2]! : text;
        for (const m of line.matchAll(/operator-[0-9a-f]{10}/g)) found.add(m[0]);
      }
      return found;
    };
    const first = await pseudonyms('a.tar.gz');
    const second = await pseudonyms('b.tar.gz');
    expect(first.size).toBe(1);
    expect(second.size).toBe(1);
    expect([...first][0]).not.toBe([...second][0]);
  });

  it('is never marked redacted when a redactor failed', async () => {
    const out = join(outDir(), 'support.tar.gz');
    const result = await buildSupportArchive(entries(), {
      out,
      redaction,
      rules: (defaults) => [
        ...defaults,
        {
          kind: 'phone',
          applies: () => true,
          apply: () => {
            throw new Error('phone metadata unreadable');
          },
        },
      ],
    });
    expect(result.manifest.redacted).toBe(false);
    expect(result.manifest.failures[0]).toMatchObject({ kind: 'phone', message: 'phone metadata unreadable' });
    const manifest = supportManifestSchema.parse(JSON.parse((await unpack(out)).get(MANIFEST_FILE)!.toString()));
    expect(manifest.redacted).toBe(false);
  });

  it('is never marked redacted when the maintained preset failed on a file', async () => {
    const out = join(outDir(), 'support.tar.gz');
    const findSecrets = (): Promise<never> => Promise.reject(new Error('rule crashed'));
    const result = await buildSupportArchive(entries(), { out, redaction: { ...redaction, findSecrets } });
    expect(result.manifest.redacted).toBe(false);
    expect(result.manifest.failures[0]).toMatchObject({ kind: 'token', message: 'secretlint: rule crashed' });
  });

  it('leaves no file behind when the build fails', async () => {
    const dir = outDir();
    const out = join(dir, 'support.tar.gz');
    const bad = [
      {
        path: 'x',
        kind: 'data' as const,
        get content(): string {
          throw new Error('source gone');
        },
      },
    ];
    await expect(buildSupportArchive(bad, { out, redaction })).rejects.toThrow('source gone');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('previews the files with their redacted names before building', () => {
    const preview = previewArchive(entries(), redaction);
    expect(preview[3]!.path).toMatch(/^operations\/operator-[0-9a-f]{10}-\[redacted:secret\]\.json$/);
    expect(preview.every((p) => !p.path.includes(SECRET) && !p.path.includes('alice'))).toBe(true);
    expect(preview[2]).toMatchObject({ kind: 'log' });
  });

  it('parses every JSON and YAML file of the archive after redaction, and keeps what is not a secret', async () => {
    const services = [{ service: 'nats', version: '2.9.25', settings: { max_memory_store: 268435456, ping_interval: '2m' } }];
    const facts = {
      name: 'host-1',
      db: { password: 'hunter2-db', port: 5432 },
      owner: EMAIL,
      card: 4111111111111111,
      uptime_ns: 4123456789012,
    };
    const kubeconfig = `users:\n  - name: admin\n    user:\n      client-key-data: ${Buffer.from(PEM).toString('base64')}\n`;
    const etcd = `name: etcd-0\nquota-backend-bytes: 8589934592\nauth:\n  password: |\n    ${SECRET}\n  user: alice # Alice's\n`;
    const out = join(outDir(), 'support.tar.gz');
    await buildSupportArchive(
      [
        { path: 'services.json', kind: 'data', content: JSON.stringify(services, null, 2) },
        { path: 'hosts/host-1/facts.json', kind: 'data', content: JSON.stringify(facts, null, 2) },
        { path: 'config/host-1/root/.kube/config.yaml', kind: 'config', content: kubeconfig },
        { path: 'config/host-1/etc/etcd/etcd.conf.yml', kind: 'config', content: etcd },
      ],
      { out, redaction },
    );
    const files = await unpack(out);
    const { parse } = await import('yaml');
    const parsed = new Map<string, unknown>();
    for (const [name, body] of files) {
      if (/\.json$/.test(name)) parsed.set(name, JSON.parse(body.toString()));
      if (/\.ya?ml$/.test(name)) parsed.set(name, parse(body.toString()));
    }
    expect(parsed.size).toBe(5);
    expect(parsed.get('services.json')).toEqual(services);
    expect(parsed.get('hosts/host-1/facts.json')).toEqual({
      ...facts,
      db: { password: '[redacted:credential]', port: 5432 },
      owner: '[redacted:email]',
      card: '[redacted:card]',
    });
    expect(parsed.get('config/host-1/root/.kube/config.yaml')).toEqual({
      users: [{ name: 'admin', user: { 'client-key-data': '[redacted:private_key]' } }],
    });
    const conf = parsed.get('config/host-1/etc/etcd/etcd.conf.yml') as { auth: { password: string; user: string } };
    expect(conf.auth.password).toBe('[redacted:credential]');
    expect(conf.auth.user).toMatch(/^operator-[0-9a-f]{10}$/);
    expect(files.get('config/host-1/etc/etcd/etcd.conf.yml')!.toString()).not.toMatch(/alice/i);
    expect(supportManifestSchema.parse(JSON.parse(files.get(MANIFEST_FILE)!.toString())).redacted).toBe(true);
  });

  it('redacts a key that straddles where a 1 MiB slice used to end, in a journal larger than a slice', async () => {
    const filler = 'Dec 04 03:25:10 host-1 app[812]: worker 3 done in 41ms, queue depth 0\n';
    const before = filler.repeat(Math.ceil((1 << 20) / filler.length) - 2);
    const log = `${before}Dec 04 03:25:11 host-1 app[812]: loaded key ${PEM}${filler.repeat(200)}`;
    const start = log.indexOf('-----BEGIN');
    expect(start).toBeLessThan(1 << 20);
    expect(start + PEM.length).toBeGreaterThan(1 << 20);
    const out = join(outDir(), 'support.tar.gz');
    const result = await buildSupportArchive([{ path: 'journal/host-1/app.service.log', kind: 'log', content: log }], { out, redaction });
    const body = (await unpack(out)).get('journal/host-1/app.service.log')!.toString();
    for (const line of PEM.split('\n').filter((l) => l && !l.startsWith('-----'))) expect(body).not.toContain(line);
    expect(result.manifest.replacements.private_key).toBe(1);
    expect(body.length).toBeLessThan(log.length);
  });

  it('checks card numbers with Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });
});
