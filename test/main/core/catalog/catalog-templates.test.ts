// The catalog's templates render into files the real services accept: etcd starts from its rendered config
// and answers /health, nats-server checks its rendered config, and check parameters and steps render per instance.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCatalogDir } from '../../../../main/core/catalog/catalog-loader';
import { renderCheckParams, renderInstance, renderSteps, templateContext } from '../../../../main/core/catalog/catalog-templates';
import { REPO_ROOT } from '../../../support/cli';
import { tempDir } from '../../../support/temp-dir';
import { closedPort } from '../../../support/tls-endpoints';

const catalog = loadCatalogDir(join(REPO_ROOT, 'resources/catalog'));

function getHealth(port: number): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', timeout: 1000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

describe('catalog templates', () => {
  test('the etcd config and unit render for one instance, and Debian etcd runs from that config', async () => {
    const desc = catalog.service('etcd')!;
    const version = catalog.version('etcd', '3.4.23-2')!;
    const dir = tempDir();
    try {
      const ctx = templateContext(desc, version, {
        instance: { name: 'etcd-1', address: '127.0.0.1', data_dir: join(dir.path, 'data'), config_dir: join(dir.path, 'etc') },
        cluster: { name: 'etcd', token: 'navin-test' },
      });
      // Free ports instead of the service's own, so the test never meets another etcd of this machine.
      ctx.ports = { client: await closedPort(), peer: await closedPort() };
      const { files, unit } = renderInstance(desc, ctx);
      const config = files.find((f) => f.name === 'config')!;
      expect(config.path).toBe(join(dir.path, 'etc', 'etcd.conf.yml'));
      expect(config.content).toContain(`initial-cluster: etcd-1=http://127.0.0.1:${ctx.ports.peer}\n`);
      expect(config.content).toContain('auto-compaction-retention: "1"');
      expect(config.content).not.toContain('client-transport-security');
      expect(config.sha256).toMatch(/^[a-f0-9]{64}$/);
      expect(unit.name).toBe('navin-etcd.service');
      expect(unit.content).toContain('ExecStart=/opt/navin/etcd/3.4.23-2/etcd --config-file ');
      expect(unit.content).toContain('User=navin-etcd');

      mkdirSync(join(dir.path, 'etc'));
      writeFileSync(config.path, config.content);
      const etcd = spawn('etcd', ['--config-file', config.path], { stdio: ['ignore', 'ignore', 'pipe'] });
      let log = '';
      etcd.stderr!.setEncoding('utf8').on('data', (c: string) => (log += c));
      try {
        let health: { status: number; body: string } | null = null;
        for (let i = 0; i < 100 && !(health?.status === 200); i++) {
          await new Promise((r) => setTimeout(r, 100));
          health = await getHealth(ctx.ports.client!);
        }
        expect(health, log.slice(-2000)).toMatchObject({ status: 200 });
        expect(JSON.parse(health!.body).health).toBe('true');
      } finally {
        etcd.kill('SIGTERM');
        await new Promise((r) => etcd.once('exit', r));
      }
    } finally {
      dir.remove();
    }
  }, 30_000);

  test('the 3.4.23-1 config has no compaction, and TLS adds the transport security blocks', () => {
    const desc = catalog.service('etcd')!;
    const plain = renderInstance(
      desc,
      templateContext(desc, catalog.version('etcd', '3.4.23-1')!, { instance: { name: 'e1', address: '10.0.0.1' } }),
    );
    expect(plain.files[0]!.content).not.toContain('auto-compaction');
    const tls = renderInstance(
      desc,
      templateContext(desc, catalog.version('etcd', '3.4.23-1')!, {
        instance: { name: 'e1', address: '10.0.0.1' },
        tls: { enabled: true },
      }),
    );
    expect(tls.files[0]!.content).toContain('listen-client-urls: https://10.0.0.1:2379');
    expect(tls.files[0]!.content).toContain('cert-file: /etc/navin/etcd/tls/tls.crt');
    expect(tls.files[0]!.sha256).not.toBe(plain.files[0]!.sha256);
  });

  test('nats-server accepts its rendered config, alone and in a cluster of three', () => {
    const desc = catalog.service('nats')!;
    const version = catalog.version('nats', '2.9.10-1')!;
    const dir = tempDir();
    try {
      const members = [
        { name: 'nats-1', address: '127.0.0.1' },
        { name: 'nats-2', address: '127.0.0.2' },
        { name: 'nats-3', address: '127.0.0.3' },
      ];
      for (const [label, input] of [
        ['alone', { instance: { ...members[0]!, data_dir: join(dir.path, 'js') } }],
        ['cluster', { instance: { ...members[0]!, data_dir: join(dir.path, 'js') }, members }],
      ] as const) {
        const { files } = renderInstance(desc, templateContext(desc, version, input));
        const file = join(dir.path, `${label}.conf`);
        writeFileSync(file, files[0]!.content);
        const r = spawnSync('nats-server', ['-t', '-c', file], { encoding: 'utf8' });
        expect(r.status, `${label}: ${r.stderr}${r.stdout}\n${files[0]!.content}`).toBe(0);
        if (label === 'cluster') expect(files[0]!.content).toContain('"nats-route://127.0.0.3:6222"');
        else expect(files[0]!.content).not.toContain('cluster {');
      }
    } finally {
      dir.remove();
    }
  });

  test('check parameters resolve ports and expand member lists; backup steps name the set folder', () => {
    const desc = catalog.service('etcd')!;
    const ctx = templateContext(desc, catalog.version('etcd', '3.4.23-1')!, {
      instance: { name: 'e1', address: '10.0.0.1' },
      members: [
        { name: 'e1', address: '10.0.0.1' },
        { name: 'e2', address: '10.0.0.2' },
      ],
      backup_dir: '/var/backups/navin/set-1',
    });
    expect(renderCheckParams(desc.checks.liveness.params, ctx)).toEqual({ port: 2379 });
    expect(renderCheckParams(desc.checks.readiness.params, ctx)).toEqual({ endpoints: ['http://10.0.0.1:2379', 'http://10.0.0.2:2379'] });
    const steps = renderSteps(desc.backup!.steps, ctx);
    expect(steps).toEqual([
      {
        name: 'snapshot',
        run: [
          '/opt/navin/etcd/3.4.23-1/etcdctl',
          '--endpoints=http://10.0.0.1:2379',
          'snapshot',
          'save',
          '/var/backups/navin/set-1/etcd-snapshot.db',
        ],
        timeout_s: 600,
      },
    ]);
    const restore = renderSteps(desc.backup!.restore.steps, ctx);
    expect(restore[0]).toEqual({ name: 'stop', unit: 'stop' });
    // Restored into a work folder inside the data folder (the dynamic user's), never beside it.
    expect(restore[2]).toMatchObject({
      run: expect.arrayContaining(['/var/backups/navin/set-1/etcd-snapshot.db', '--data-dir=/var/lib/navin/etcd/restoring']),
    });
    expect(restore.find((s) => s.name === 'own')).toEqual({
      name: 'own',
      run: ['chown', '-R', '--reference=/var/lib/navin/etcd', '/var/lib/navin/etcd/member'],
    });
    const ne = catalog.service('node-exporter')!;
    const nctx = templateContext(ne, catalog.version('node-exporter', '1.5.0-1')!, { instance: { name: 'h1', address: '10.0.0.9' } });
    expect(renderCheckParams(ne.checks.functional.params, nctx)).toEqual({ url: 'http://10.0.0.9:9100/metrics' });
  });
});
