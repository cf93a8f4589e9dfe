// Backups and restores on a booted host: a set of etcd (one member) and NATS taken under one id with every file's
// sha256, each restored (keys and stream messages back as they were), a tampered file refusing the restore before
// anything stops, and the restore an upgrade offers when its rollback is refused. Debian ships one NATS, so this
// test's catalog adds a packaging revision 2.9.10-2 of the same binary whose migration moves the JetStream store
// (flagged irreversible): a real data migration, not a second upstream release.
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { until } from '../../../support/agent-harness';
import { openConsole } from '../../../support/browser';
import { REPO_ROOT } from '../../../support/cli';
import { describeHosts, type TestHost } from '../../../support/hosts';
import { copyCatalog, installServices, operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../../../support/service-hosts';
import { tempDir } from '../../../support/temp-dir';

const MOVED_STORE = `
  - version: 2.9.10-2
    upstream: 2.9.10
    notes: Test revision - the JetStream store moves to a folder of its own, which 2.9.10-1 does not read.
    settings:
      moved_store: true
    artifacts:
      - name: nats-server
        description: the NATS server
        mode: "0755"
        platforms:
          amd64:
            digest: sha256:99bc0bf81d296f1f7d96091643825168f9fbe03343a88afe8f253f8e136a0182
            size: 11443384
            source: { debian: { package: nats-server, version: 2.9.10-1+b3, path: /usr/sbin/nats-server } }
    upgrade:
      from: [2.9.10-1]
      stateful: true
      migrations:
        - name: move-store
          description: The JetStream store moves under v2/.
          irreversible: true
          run:
            - [mkdir, -p, "{{instance.data_dir}}/v2"]
            - [mv, "{{instance.data_dir}}/jetstream", "{{instance.data_dir}}/v2/jetstream"]
      rollback: { possible: false, reason: "2.9.10-1 does not read the store where move-store put it" }
`;

const STREAM = 'ORDERS';

describeHosts('service backups and restores on a booted host', () => {
  const catalogDir = tempDir('navin-backup-catalog-');
  let s: ServiceHosts;
  let host: TestHost;
  let cluster: string;

  beforeAll(async () => {
    copyCatalog(catalogDir.path, {
      'nats.yaml': (text) =>
        `${text
          // A setting only chooses between the two folders: a path takes no setting's text.
          .replace(
            'store_dir: "{{instance.data_dir}}"',
            '{{^settings.moved_store}}store_dir: "{{instance.data_dir}}"{{/settings.moved_store}}{{#settings.moved_store}}store_dir: "{{instance.data_dir}}/v2"{{/settings.moved_store}}',
          )
          .replace('\n\nfiles:', '\n  moved_store: { type: boolean, default: false }\n\nfiles:')
          .trimEnd()}\n${MOVED_STORE}`,
    });
    s = await serviceHosts(
      [1],
      [
        ['etcd', '3.4.23-1'],
        ['nats', '2.9.10-1'],
        ['nats', '2.9.10-2'],
      ],
      { catalogDir: catalogDir.path },
    );
    host = s.hosts[0]!;
    cluster = s.clusters[0]!;
    await installServices(
      s.h,
      cluster,
      [
        ['etcd', '3.4.23-1'],
        ['nats', '2.9.10-1'],
      ],
      [host.name],
    );
  }, 600_000);

  afterAll(async () => {
    await s?.close();
    catalogDir.remove();
  }, 180_000);

  const operate = (method: 'POST' | 'PUT', path: string, body: unknown): Promise<any> => operateOn(s.h, method, path, body);
  const etcdctl = (args: string): Promise<string> =>
    sh(host, `ETCDCTL_API=3 /opt/navin/etcd/3.4.23-1/etcdctl --endpoints=http://${host.address}:2379 ${args}`);
  const keys = async (): Promise<string[]> => (await etcdctl('get --prefix backup-test/ --keys-only')).split('\n').filter(Boolean).sort();
  const withNats = async <T>(fn: (nc: NatsConnection) => Promise<T>): Promise<T> => {
    const nc = await connect({ servers: `nats://${host.address}:4222`, timeout: 5000, reconnect: false });
    try {
      return await fn(nc);
    } finally {
      await nc.close();
    }
  };
  /** Every message of the stream, in order (an empty list when the stream is gone). */
  const messages = (): Promise<string[]> =>
    withNats(async (nc) => {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info(STREAM).catch(() => null);
      if (!info) return [];
      const out: string[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
        const m = await jsm.streams.getMessage(STREAM, { seq }).catch(() => null);
        if (m) out.push(m.string());
      }
      return out;
    });
  const publish = (texts: string[]): Promise<void> =>
    withNats(async (nc) => {
      const js = jetstream(nc);
      for (const t of texts) await js.publish(`orders.${t}`, t);
    });
  const backUp = async (body: unknown): Promise<any> => {
    const r = await s.h.api('POST', `/api/v1/clusters/${cluster}/service-backups`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return until(
      `backup set ${r.body.id}`,
      async () => {
        const g = await s.h.api('GET', `/api/v1/clusters/${cluster}/service-backups/${r.body.id}`);
        return g.body.state !== 'running' ? g.body : undefined;
      },
      240_000,
      200,
    );
  };
  const unit = async (name: string): Promise<{ id: string; active: string }> => {
    const out = await sh(host, `systemctl show ${name} -p InvocationID,ActiveState`);
    return { id: /InvocationID=(\S*)/.exec(out)![1]!, active: /ActiveState=(\S*)/.exec(out)![1]! };
  };
  const version = async (service: string): Promise<string> =>
    (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/${service}`)).body.version;

  const originals = Array.from({ length: 20 }, (_, i) => `m${String(i).padStart(2, '0')}`);
  let set: any;

  test('Back up now: etcd and NATS under one set id, in dependency order, every file with the sha256 it has on the host', async () => {
    for (let i = 0; i < 20; i++) await etcdctl(`put backup-test/k${String(i).padStart(2, '0')} v${i}`);
    await withNats(async (nc) => {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: STREAM, subjects: ['orders.>'], storage: 'file' });
    });
    await publish(originals);
    expect(await messages()).toEqual(originals);

    set = await backUp({});
    expect(set.state, `${set.code} ${set.message}`).toBe('succeeded');
    expect(set.reason).toBe('manual');
    expect(set.services).toEqual(['etcd', 'nats']);
    expect(set.operations.map((o: any) => [o.service, o.action, o.state])).toEqual([
      ['etcd', 'backup', 'succeeded'],
      ['nats', 'backup', 'succeeded'],
    ]);
    for (const b of set.backups) {
      expect(b.version).toBe(b.service === 'etcd' ? '3.4.23-1' : '2.9.10-1');
      expect(b.host.name).toBe(host.name);
      for (const f of b.files) {
        expect(f.path.startsWith(`/var/lib/navin/backups/${set.id}/${b.service}/`)).toBe(true);
        expect((await sh(host, `sha256sum ${f.path}`)).split(' ')[0]).toBe(f.sha256);
      }
    }
    // The NATS archive holds the stream; the etcd snapshot its keys (etcdctl reads it).
    const natsFile = set.backups.find((b: any) => b.service === 'nats').files[0].path;
    expect(await sh(host, `tar -tzf ${natsFile}`)).toContain(`jetstream/$G/streams/${STREAM}/`);
    const snap = set.backups.find((b: any) => b.service === 'etcd').files[0].path;
    expect(
      JSON.parse(await sh(host, `/opt/navin/etcd/3.4.23-1/etcdctl snapshot status ${snap} --write-out=json`)).totalKey,
    ).toBeGreaterThanOrEqual(20);
  });

  test('etcd restored from the set: the keys are those of the backup again', async () => {
    const written = (await keys()).slice();
    await etcdctl('del backup-test/k00');
    await etcdctl('put backup-test/later x');
    const op = await operate('POST', `/api/v1/clusters/${cluster}/service-backups/${set.id}/restore`, { service: 'etcd' });
    expect(op.state, op.message).toBe('succeeded');
    expect(op.action).toBe('restore');
    expect(op.phases.map((p: any) => p.name)).toEqual(['verify the backup', 'restore', 'readiness and functional test']);
    expect(await keys()).toEqual(written);
    expect((await etcdctl('get backup-test/k07 --print-value-only')).trim()).toBe('v7');
  });

  test('NATS restored from the set: the stream’s messages survive, those published after the backup are gone', async () => {
    await publish(['after-1', 'after-2']);
    expect(await messages()).toEqual([...originals, 'after-1', 'after-2']);
    const op = await operate('POST', `/api/v1/clusters/${cluster}/service-backups/${set.id}/restore`, { service: 'nats' });
    expect(op.state, op.message).toBe('succeeded');
    expect(await messages()).toEqual(originals);
    const view = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/nats`)).body;
    expect(view.state).toBe('running');
    expect(view.checks.functional.outcome.status).toBe('pass');
  });

  test('a tampered backup file refuses the restore before anything is stopped (backup_modified)', async () => {
    const natsFile = set.backups.find((b: any) => b.service === 'nats').files[0].path;
    const before = await unit('navin-nats.service');
    expect(before.active).toBe('active');
    await sh(host, `printf x >> ${natsFile}`);
    const op = await operate('POST', `/api/v1/clusters/${cluster}/service-backups/${set.id}/restore`, { service: 'nats' });
    expect(op.state).toBe('failed');
    expect(op.code).toBe('backup_modified');
    expect(op.phase).toBe(0);
    expect(op.message).toContain(natsFile);
    // The same run of the unit as before: it was never stopped; the service is not marked failed.
    expect(await unit('navin-nats.service')).toEqual(before);
    expect((await s.h.api('GET', `/api/v1/clusters/${cluster}/services/nats`)).body.state).toBe('running');
    expect(await messages()).toEqual(originals);
  });

  test('a backup that fails after stopping NATS starts it again before it ends', async () => {
    // The store moved aside while the server runs: the archive step, after the stop, finds nothing to archive.
    await sh(host, 'mv /var/lib/navin/nats/jetstream /var/lib/navin/nats/jetstream.aside');
    try {
      const failed = await backUp({ services: ['nats'] });
      expect(failed.state).toBe('failed');
      expect(failed.code).toBe('command_failed');
      const op = (await s.h.api('GET', `/api/v1/operations/${failed.operations[0].id}`)).body;
      expect(op.phases.map((p: any) => p.name)).toEqual(['backup', 'start again after the failed backup']);
      expect(op.message).toContain('task backup:archive failed');
      expect(op.message).toContain('the service was started again');
      expect((await unit('navin-nats.service')).active).toBe('active');
    } finally {
      await sh(
        host,
        'systemctl stop navin-nats.service && rm -rf /var/lib/navin/nats/jetstream && ' +
          'mv /var/lib/navin/nats/jetstream.aside /var/lib/navin/nats/jetstream && systemctl start navin-nats.service',
      );
    }
    await until('NATS back', async () => ((await messages().catch(() => [])).length === originals.length ? true : undefined), 30_000, 300);
    expect(await messages()).toEqual(originals);
  });

  test('after an irreversible migration the rollback is refused, and the restore it offers brings back the version and the data', async () => {
    const info = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/nats/upgrade?to=2.9.10-2`)).body;
    expect(info).toMatchObject({ compatible: true, irreversible: ['move-store'] });
    const up = await operate('POST', `/api/v1/clusters/${cluster}/services/nats/upgrade`, { version: '2.9.10-2' });
    expect(up.state, up.message).toBe('succeeded');
    // A stateful service is backed up first, then the canary (stop, migration, files, start, health).
    expect(up.phases.map((p: any) => p.name)).toEqual(['backup', 'canary', 'readiness and functional test']);
    const canary = up.phases[1].plans[0].tasks.map((t: any) => t.id);
    expect(canary.indexOf('migrate:move-store:2')).toBeGreaterThan(canary.indexOf('stop'));
    expect(canary.indexOf('migrate:move-store:2')).toBeLessThan(canary.indexOf('start'));
    expect(await sh(host, 'ls /var/lib/navin/nats/v2')).toContain('jetstream');
    expect(await messages()).toEqual(originals);
    await publish(['on-v2']);

    const back = await s.h.api('POST', `/api/v1/clusters/${cluster}/services/nats/rollback`, {});
    expect(back.status).toBe(409);
    expect(back.body.error.code).toBe('rollback_refused');
    const offered = back.body.error.details.restore;
    expect(offered).toMatchObject({ offered: true, version: '2.9.10-1' });
    const upgradeSet = (await s.h.api('GET', `/api/v1/clusters/${cluster}/service-backups/${offered.backup_set_id}`)).body;
    expect(upgradeSet).toMatchObject({ reason: 'upgrade', state: 'succeeded', services: ['nats'] });

    // The manual set was taken in 2.9.10-1: it does not restore into 2.9.10-2.
    const mismatch = await s.h.api('POST', `/api/v1/clusters/${cluster}/service-backups/${set.id}/restore`, { service: 'nats' });
    expect(mismatch.body.error?.code).toBe('backup_version_mismatch');

    const restore = await operate('POST', `/api/v1/clusters/${cluster}/service-backups/${offered.backup_set_id}/restore`, {
      service: 'nats',
    });
    expect(restore.state, restore.message).toBe('succeeded');
    expect(await version('nats')).toBe('2.9.10-1');
    expect(await sh(host, 'systemctl cat navin-nats.service')).toContain('/opt/navin/nats/2.9.10-1/nats-server');
    expect(await messages()).toEqual(originals);
  });

  test('in Chromium: Back up now with the services chosen, a restore from the Backups tab, and the restore a refused rollback offers', async () => {
    const browser = await openConsole(s.h.manager.url, { name: 'alice', password: 'correct horse battery' });
    const shot = (name: string) => browser.page.screenshot({ path: join(REPO_ROOT, 'test-results', 'screenshots', name), fullPage: true });
    try {
      const { page } = browser;
      const origin = new URL(s.h.manager.url).origin;
      await page.goto(`${origin}/#/clusters/${cluster}/backups`);
      const tab = page.getByTestId('cluster-backups');
      const before = (await s.h.api('GET', `/api/v1/clusters/${cluster}/service-backups`)).body.items.length;
      await expect.poll(() => tab.getByTestId('service-backup-set').count(), { timeout: 15_000 }).toBe(before);
      // Only NATS this time: etcd unchecked.
      await tab.getByTestId('back-up-service-etcd').uncheck();
      await tab.getByTestId('service-back-up-now').click();
      await expect.poll(() => tab.getByTestId('service-backup-set').count(), { timeout: 30_000 }).toBe(before + 1);
      const newest = tab.getByTestId('service-backup-set').first();
      await newest.and(page.locator('[data-state="succeeded"]')).waitFor({ timeout: 120_000 });
      expect(await newest.getByTestId('service-backup-file').count()).toBe(1);
      expect(await newest.getByTestId('service-backup-file').getAttribute('data-service')).toBe('nats');
      expect(await newest.getByTestId('service-backup-sha256').innerText()).toMatch(/^[0-9a-f]{64}$/);
      await shot('service-backups-en.png');

      await publish(['after-ui-backup']);
      const prior = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/nats`)).body.operation?.id;
      await newest.getByTestId('service-restore-nats').click();
      await tab.getByTestId('service-restore-started').waitFor();
      const restored = await until(
        'the restore started from the console',
        async () => {
          const op = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/nats`)).body.operation;
          return op?.action === 'restore' && op.id !== prior && op.state !== 'running' ? op : undefined;
        },
        120_000,
        200,
      );
      expect(restored.state, restored.message).toBe('succeeded');
      expect(await messages()).toEqual(originals);

      // The Upgrade panel: the catalog's answer, the upgrade, the refused rollback and the restore it offers.
      await page.goto(`${origin}/#/clusters/${cluster}/services`);
      const panel = page.getByTestId('service-upgrade');
      await panel.getByTestId('upgrade-service').selectOption('nats');
      await panel.getByTestId('upgrade-to').selectOption('2.9.10-2');
      await panel.getByTestId('upgrade-check').click();
      await panel.getByTestId('upgrade-migrations').getByText('irreversible').waitFor();
      await panel.getByTestId('upgrade-no-rollback').waitFor();
      await panel.getByTestId('upgrade-submit').click();
      await until('the upgrade', async () => ((await version('nats')) === '2.9.10-2' ? true : undefined), 120_000, 200);
      await panel.getByTestId('rollback-submit').click();
      await panel.getByTestId('restore-offer').waitFor({ timeout: 30_000 });
      await page.getByTestId('service-action-error').and(page.locator('[data-error-code="rollback_refused"]')).waitFor();
      await shot('service-rollback-refused-en.png');
      await panel.getByTestId('restore-offer-submit').click();
      await until('the restore of the upgrade', async () => ((await version('nats')) === '2.9.10-1' ? true : undefined), 120_000, 200);
      expect(await messages()).toEqual(originals);
    } finally {
      await browser.close();
    }
  });
});
