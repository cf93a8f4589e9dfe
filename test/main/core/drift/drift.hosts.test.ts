// Drift on a booted Debian 12 host: files and units the console wrote for the node exporter and NATS are
// modified, deleted and swapped for a symlink by hand; a scan finds each one and opens the config_drift alert;
// each way of resolving a finding is seen: put back by hand, realigned by the console (refused while the cluster
// is in report-only mode), and removed with its service; the alert clears with the last one. All of it audited.
// Then a support archive of the cluster, built from what the agents read, redacted.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readTar } from '../../../support/bundles';
import { until } from '../../../support/agent-harness';
import { openConsole } from '../../../support/browser';
import { REPO_ROOT } from '../../../support/cli';
import { describeHosts, type TestHost } from '../../../support/hosts';
import { installServices, operate as operateOn, serviceHosts, sh, type ServiceHosts } from '../../../support/service-hosts';

const NODE_EXPORTER = '1.5.0-1';
const NATS = '2.9.10-1';
const NE_CONFIG = '/etc/navin/node-exporter/web-config.yml';
const NE_BIN = `/opt/navin/node-exporter/${NODE_EXPORTER}/node-exporter`;
const NATS_CONFIG = '/etc/navin/nats/nats-server.conf';
const NATS_UNIT = '/etc/systemd/system/navin-nats.service';

describeHosts('drift of the files and units the console wrote, on a booted host', () => {
  let s: ServiceHosts;
  let host: TestHost;
  let cluster: string;

  beforeAll(async () => {
    s = await serviceHosts(
      [1],
      [
        ['node-exporter', NODE_EXPORTER],
        ['nats', NATS],
      ],
    );
    host = s.hosts[0]!;
    cluster = s.clusters[0]!;
    await installServices(
      s.h,
      cluster,
      [
        ['node-exporter', NODE_EXPORTER],
        ['nats', NATS],
      ],
      [host.name],
    );
  }, 600_000);

  afterAll(async () => {
    await s?.close();
  }, 180_000);

  const operate = (method: 'POST' | 'PUT', path: string, body: unknown): Promise<any> => operateOn(s.h, method, path, body);

  const scan = async (): Promise<any> => {
    const r = await s.h.api('POST', `/api/v1/clusters/${cluster}/drift/scan`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.scanned.unanswered).toEqual([]);
    return r.body;
  };
  const finding = (view: any, path: string): any => view.findings.find((f: any) => f.path === path && f.resolved_at === null);
  const resolved = (view: any, path: string): any => view.findings.find((f: any) => f.path === path && f.resolved_at !== null);
  const audit = async (action: string): Promise<any[]> =>
    (await s.h.api('GET', `/api/v1/audit?cluster_id=${cluster}&action=${action}`)).body.items;

  test('a clean host has nothing to report and no alert', async () => {
    const view = await scan();
    expect(view.findings).toEqual([]);
    expect(view.alert).toBeNull();
    expect(view.mode).toBe('realign');
  });

  test('modified, deleted and symlink-swapped by hand: each is a finding, with the config_drift alert', async () => {
    await sh(host, `cp ${NATS_CONFIG} /root/nats-server.conf.kept`);
    await sh(host, `echo '# edited by hand' >> ${NE_CONFIG}`);
    await sh(host, `echo 'max_payload: 2048' >> ${NATS_CONFIG}`);
    await sh(host, `rm ${NATS_UNIT}`);
    await sh(host, `mv ${NE_BIN} /root/node-exporter.kept && ln -s /bin/true ${NE_BIN}`);
    const view = await scan();
    expect(finding(view, NE_CONFIG)).toMatchObject({ state: 'modified', kind: 'file', service: 'node-exporter', host_name: host.name });
    expect(finding(view, NE_CONFIG).observed_sha256).not.toBe(finding(view, NE_CONFIG).expected_sha256);
    expect(finding(view, NATS_CONFIG)).toMatchObject({ state: 'modified', service: 'nats' });
    expect(finding(view, NATS_UNIT)).toMatchObject({ state: 'deleted', kind: 'unit', observed_sha256: null });
    expect(finding(view, NE_BIN)).toMatchObject({ state: 'replaced', detail: 'a symlink to /bin/true' });
    expect(view.alert).toMatchObject({ code: 'config_drift', open_findings: 4 });
    expect((await audit('drift.detected')).map((r) => r.target).sort()).toEqual([NATS_UNIT, NATS_CONFIG, NE_BIN, NE_CONFIG].sort());
    expect(await audit('alert.opened')).toHaveLength(1);
    // A second scan finds the same, and opens nothing twice.
    const again = await scan();
    expect(again.findings.filter((f: any) => f.resolved_at === null)).toHaveLength(4);
    expect(await audit('drift.detected')).toHaveLength(4);
  });

  test('put back by hand: the next scan resolves the finding as restored', async () => {
    await sh(host, `cp /root/nats-server.conf.kept ${NATS_CONFIG}`);
    const view = await scan();
    expect(finding(view, NATS_CONFIG)).toBeUndefined();
    expect(resolved(view, NATS_CONFIG).resolution).toBe('restored');
  });

  test('report-only mode refuses to realign; realign rewrites the service and the findings resolve as realigned', async () => {
    const id = finding(await scan(), NE_CONFIG).id;
    expect((await s.h.api('PUT', `/api/v1/clusters/${cluster}/drift/mode`, { mode: 'report_only' })).body.mode).toBe('report_only');
    const refused = await s.h.api('POST', `/api/v1/drift/findings/${id}/realign`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('drift_report_only');
    // Nothing was rewritten: still found.
    expect(finding(await scan(), NE_CONFIG)).toBeDefined();
    await s.h.api('PUT', `/api/v1/clusters/${cluster}/drift/mode`, { mode: 'realign' });
    const started = await s.h.api('POST', `/api/v1/drift/findings/${id}/realign`, {});
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const op = await until(
      'the realign',
      async () => {
        const r = await s.h.api('GET', `/api/v1/operations/${started.body.id}`);
        return r.body.state !== 'running' ? r.body : undefined;
      },
      150_000,
      500,
    );
    expect(op.action).toBe('realign');
    expect(op.state, JSON.stringify(op.message)).toBe('succeeded');
    const view = await scan();
    for (const path of [NE_CONFIG, NE_BIN]) expect(resolved(view, path).resolution, path).toBe('realigned');
    expect((await sh(host, `test -L ${NE_BIN} && echo link || echo file`)).trim()).toBe('file');
    expect(await audit('drift.mode')).toHaveLength(2);
  });

  test('removed with its service: the uninstall resolves the last finding and clears the alert', async () => {
    expect(finding(await scan(), NATS_UNIT)).toBeDefined();
    const op = await operate('POST', `/api/v1/clusters/${cluster}/services/nats/actions`, { action: 'uninstall' });
    expect(op.state, JSON.stringify(op.message)).toBe('succeeded');
    const view = await scan();
    expect(resolved(view, NATS_UNIT).resolution).toBe('removed');
    expect(view.alert).toBeNull();
    expect(await audit('alert.cleared')).toHaveLength(1);
    expect((await audit('drift.resolved')).map((r) => r.details.resolution).sort()).toEqual([
      'realigned',
      'realigned',
      'removed',
      'restored',
    ]);
  });

  test('a support archive of the cluster: facts, services, rendered configs and journals read through the agent, redacted, with its manifest', async () => {
    const preview = await s.h.api('GET', `/api/v1/clusters/${cluster}/support/preview`);
    expect(preview.status).toBe(200);
    const planned = (preview.body.items as { path: string }[]).map((i) => i.path);
    expect(planned).toEqual(
      expect.arrayContaining(['cluster.json', 'services.json', 'drift-findings.json', `config/${host.name}${NE_CONFIG}`]),
    );
    const created = await s.h.api('POST', `/api/v1/clusters/${cluster}/support`);
    expect(created.status, JSON.stringify(created.body).slice(0, 400)).toBe(201);
    expect(created.body.manifest.redacted).toBe(true);
    const got = await s.h.api('GET', `/api/v1/clusters/${cluster}/support/${created.body.id}`);
    const file = join(s.h.dir, 'support.tar');
    writeFileSync(file, gunzipSync(Buffer.from(got.body.content_base64, 'base64')));
    const files = new Map((await readTar(file)).map((e) => [e.name, e.body.toString('utf8')]));
    const manifest = JSON.parse(files.get('MANIFEST.json')!);
    // Every file the manifest lists is there with its sha256.
    for (const f of manifest.files) expect(createHash('sha256').update(files.get(f.path)!).digest('hex'), f.path).toBe(f.sha256);
    expect(JSON.parse(files.get('cluster.json')!)).toMatchObject({ kind: 'hosts', profile: 'development' });
    expect(JSON.parse(files.get('services.json')!).map((x: any) => x.service)).toEqual(['node-exporter']);
    expect(files.get(`config/${host.name}${NE_CONFIG}`)).toBeDefined();
    // The journal of the instance, read by the agent on the host; addresses in logs are redacted.
    const journal = files.get(`journal/${host.name}/navin-node-exporter.service.log`)!;
    expect(journal).toMatch(/node.exporter/i);
    expect(journal).not.toContain(host.address);
    // The operator who ran the operations is a pseudonym everywhere, never her name.
    for (const [name, text] of files) expect(text.includes('alice'), name).toBe(false);
    expect(manifest.replacements.user_name).toBeGreaterThan(0);
  });

  test('in Chromium: Scan now finds a file changed by hand, Realign resolves it; the Support tab previews and creates an archive', async () => {
    await sh(host, `echo '# changed by hand' >> ${NE_CONFIG}`);
    const since = new Date().toISOString();
    const browser = await openConsole(s.h.manager.url, { name: 'alice', password: 'correct horse battery' });
    const shot = (name: string) => browser.page.screenshot({ path: join(REPO_ROOT, 'test-results', 'screenshots', name), fullPage: true });
    try {
      const { page } = browser;
      const origin = new URL(s.h.manager.url).origin;
      await page.goto(`${origin}/#/clusters/${cluster}/drift`);
      const tab = page.getByTestId('cluster-drift');
      await tab.getByTestId('drift-clear').waitFor();
      await tab.getByTestId('drift-scan-now').click();
      await tab.getByTestId('drift-alert').waitFor({ timeout: 30_000 });
      const row = tab.locator(`[data-testid="drift-finding"][data-path="${NE_CONFIG}"][data-resolution=""]`);
      await row.waitFor();
      expect(await row.getAttribute('data-state')).toBe('modified');
      await shot('drift-finding-en.png');
      const id = await row.getAttribute('data-finding-id');
      await row.getByTestId('drift-realign').click();
      await tab.getByTestId('drift-realign-started').waitFor();
      await until(
        'the realign started from the console',
        async () => {
          const op = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/node-exporter`)).body.operation;
          return op?.action === 'realign' && op.state === 'succeeded' && op.created_at > since ? true : undefined;
        },
        120_000,
        300,
      );
      // The next scan finds the file as the console wrote it again: resolved as realigned, the alert cleared.
      await tab.getByTestId('drift-scan-now').click();
      await tab.locator(`[data-finding-id="${id}"][data-resolution="realigned"]`).waitFor({ timeout: 30_000 });
      await tab.getByTestId('drift-clear').waitFor({ timeout: 30_000 });
      expect(await sh(host, `cat ${NE_CONFIG}`)).not.toContain('changed by hand');

      await page.goto(`${origin}/#/clusters/${cluster}/support`);
      const support = page.getByTestId('cluster-support');
      await expect.poll(() => support.getByTestId('support-preview-item').count(), { timeout: 15_000 }).toBeGreaterThan(3);
      const before = (await s.h.api('GET', `/api/v1/clusters/${cluster}/support`)).body.items.length;
      await support.getByTestId('support-create').click();
      const created = support.getByTestId('support-created');
      await created.waitFor({ timeout: 120_000 });
      expect(await created.getAttribute('data-redacted')).toBe('true');
      expect(await created.locator('[data-kind="user_name"]').count()).toBe(1);
      await expect.poll(() => support.getByTestId('support-archive').count(), { timeout: 15_000 }).toBe(before + 1);
      await shot('support-archive-en.png');
    } finally {
      await browser.close();
    }
  });
});
