// Keys never leave where they were made (issue 34): a node agent renews its certificate and makes a service key
// with a tls.csr plan, a cluster agent renews its own; then every API answer that shows certificates, hosts,
// commands and plans (the tls.csr results included), the audit, a support archive of the hosts cluster and
// everything the manager and agents wrote to stdout and stderr meanwhile hold no PEM private key block and no
// piece of any of those keys' base64 bodies.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { createReadStream } from 'node:fs';
import tar from 'tar-stream';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { folderCertificateStore } from '../../../../agent/certificate-files';
import { CertificateRenewer } from '../../../../agent/certificate-renewer';
import { gatewayClient } from '../../../../agent/gateway-client';
import { loadIdentity } from '../../../../agent/identity';
import { NodeAgent } from '../../../../agent/node/node-agent';
import type { Gateway } from '../../../../main/core/gateway/gateway';
import type { NodeAgentConfigBody } from '../../../../main/wire/node-agent';
import { until } from '../../../support/agent-harness';
import { testManager, type TestManager } from '../../../support/manager';
import { tempDir } from '../../../support/temp-dir';
import { startTestGateway } from '../../../support/test-gateway';
import { mkdirSync, writeFileSync } from 'node:fs';

const DAY = 86_400_000;
const later = (): Date => new Date(Date.now() + 300 * DAY);
const SERVICE_KEY = '/etc/navin/leak/tls/tls.key';

let t: TestManager;
let gw: Gateway;
const dirs: { remove(): void }[] = [];
const written: string[] = [];

beforeAll(async () => {
  t = testManager();
  ({ gateway: gw } = await startTestGateway(t, { hosts: t.manager.hostCommands }));
  // Everything written to stdout and stderr from here on: the manager's log lines and the agents'.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await gw?.close();
  t?.close();
  for (const d of dirs) d.remove();
});

function folder(prefix: string, files: Record<string, string> = {}): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir.path, name), text, { mode: 0o600 });
  return dir.path;
}

/**
 * Pieces of a key that only the key holds: 24-character runs of its PEM body past the public modulus (the first
 * lines also encode the modulus, which every CSR and certificate carries), and of its private exponent and primes
 * as JWK (base64url).
 */
function keyPieces(keyPem: string): string[] {
  const body = keyPem.split(/\r?\n/).filter((l) => l.length > 0 && !l.startsWith('-----'));
  const jwk = createPrivateKey(keyPem).export({ format: 'jwk' });
  const secret = [jwk.d, jwk.p, jwk.q].filter((v): v is string => typeof v === 'string');
  expect(body.length).toBeGreaterThan(20);
  return [...body.slice(8).map((l) => l.slice(0, 24)), ...secret.map((v) => v.slice(0, 24))];
}

async function unpack(file: string): Promise<string> {
  const texts: string[] = [];
  const extract = tar.extract();
  extract.on('entry', (_header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      texts.push(Buffer.concat(chunks).toString('utf8'));
      next();
    });
    stream.resume();
  });
  await pipeline(createReadStream(file), createGunzip(), extract);
  return texts.join('\n');
}

test('no private key, nor any piece of one, in the API answers, the audit, a support archive or the logs', async () => {
  const admin = await t.login('leak-admin', 'admin');
  const get = async (path: string): Promise<unknown> => {
    const r = await t.call('GET', path, undefined, admin);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };

  // A node agent renews its certificate and makes a service key by a tls.csr plan.
  const hostsCluster = t.manager.clusters.create({ name: 'leak-hosts', kind: 'hosts' }, 'test');
  const hostId = t.manager.hosts.add(hostsCluster.id, { name: 'leak-0', address: '198.18.31.1' }, 'test').id;
  const hostIdentity = t.manager.hostIdentities.issue(hostId, { gateway_url: gw.url, server_name: 'localhost' }, 'test');
  const hostDir = folder('navin-leak-identity-', hostIdentity.files);
  const root = folder('navin-leak-host-');
  mkdirSync(join(root, 'state'));
  const agent = new NodeAgent({
    identity: loadIdentity<NodeAgentConfigBody>(hostDir),
    version: 'test',
    stateDir: join(root, 'state'),
    prefix: root,
    renewal: { store: folderCertificateStore(hostDir), now: later },
  });
  await agent.start();
  const keys: string[] = [];
  try {
    await until('the node agent renewed', () =>
      readFileSync(join(hostDir, 'tls.crt'), 'utf8') !== hostIdentity.files['tls.crt'] ? true : undefined,
    );
    keys.push(readFileSync(join(hostDir, 'tls.key'), 'utf8'));
    const plan = t.manager.hostCommands.issuePlan(
      hostId,
      {
        tasks: [
          {
            id: 'csr',
            kind: 'tls.csr',
            key_path: SERVICE_KEY,
            common_name: 'leak.leak-0',
            dns_names: ['leak-0'],
            ip_addresses: ['198.18.31.1'],
            rotate: false,
          },
        ],
      },
      'test',
    );
    await until('the tls.csr plan done', () => (t.manager.commands.get(plan.id).state === 'succeeded' ? true : undefined), 30_000);
    keys.push(readFileSync(join(root, SERVICE_KEY), 'utf8'));

    // A cluster agent renews its own.
    const k8s = t.manager.clusters.create({ name: 'leak-k8s' }, 'test');
    const k8sDir = folder('navin-leak-k8s-', t.manager.agentIdentities.issue(k8s.id, gw.url, 'test', 'localhost').files);
    const identity = loadIdentity(k8sDir);
    const client = gatewayClient(identity, 'agent-a', 'test');
    try {
      const renewer = new CertificateRenewer({
        store: folderCertificateStore(k8sDir),
        identity,
        gateway: client,
        commonName: k8s.id,
        isActive: () => true,
        now: later,
      });
      expect(await renewer.check()).toBe('renewed');
      await client.commands(0);
    } finally {
      client.close();
    }
    keys.push(identity.keyPem);

    const answers = [
      await get('/api/v1/certificates'),
      await get(`/api/v1/certificates?cluster_id=${hostsCluster.id}`),
      await get(`/api/v1/clusters/${hostsCluster.id}/hosts`),
      await get(`/api/v1/hosts/${hostId}`),
      await get(`/api/v1/hosts/${hostId}/commands`),
      await get('/api/v1/commands'),
      await get(`/api/v1/commands/${plan.id}`),
      await get(`/api/v1/commands/${plan.id}/plan`),
      await get(`/api/v1/commands/${plan.id}/envelope`),
      await get(`/api/v1/clusters/${hostsCluster.id}/services`),
      await get('/api/v1/audit?limit=500'),
    ];
    // The tls.csr result is there, a CSR and no key: the walk reads what it must.
    expect(JSON.stringify(answers[7])).toContain('CERTIFICATE REQUEST');
    const archive = await t.manager.support.create(hostsCluster.id, 'test');
    const archived = await unpack(join(t.dataDir, 'support', hostsCluster.id, `${archive.id}.tar.gz`));
    expect(archived.length).toBeGreaterThan(0);

    const places: [string, string][] = [
      ['the API answers', JSON.stringify(answers)],
      ['the audit rows', JSON.stringify(t.manager.store.audit.list({ limit: 1000 }))],
      ['the support archive', archived],
      ['the log output', written.join('')],
    ];
    expect(keys).toHaveLength(3);
    // The capture saw the agents' lines: the renewals were logged where they are looked for.
    expect(written.join('')).toContain('certificate.renewed');
    for (const [where, text] of places) {
      expect(text, where).not.toMatch(/PRIVATE KEY/);
      for (const key of keys)
        for (const piece of keyPieces(key)) expect(text.includes(piece), `${where} holds a piece of a key`).toBe(false);
    }
  } finally {
    await agent.stop();
  }
}, 120_000);
