// The component sheet on booted Debian 12 hosts running etcd, NATS and the node exporter: every value it shows is
// what the agents observed (a unit stopped by hand shows stopped at the next refresh, while the service's last
// operation still says running), the Metrics tab charts real node exporter scrapes, and Chromium opens all twelve
// tabs of each service, in English and in French, by their addresses, with a screenshot of each.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openConsole } from '../support/browser';
import { REPO_ROOT } from '../support/cli';
import { SHEET_TABS } from '../../renderer/src/stores/router';
import { describeHosts } from '../support/hosts';
import { installServices, serviceHosts, sh, type ServiceHosts } from '../support/service-hosts';

const ETCD = ['etcd', '3.4.23-1'] as const;
const NATS = ['nats', '2.9.10-1'] as const;
const NODE_EXPORTER = ['node-exporter', '1.5.0-1'] as const;
const TABS = SHEET_TABS;
const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots', 'sheet');

describeHosts('the component sheet, from what the agents observed on booted hosts', () => {
  let s: ServiceHosts;
  let cluster: string;
  let names: [string, string];

  beforeAll(async () => {
    s = await serviceHosts([2], [[...ETCD], [...NATS], [...NODE_EXPORTER]]);
    cluster = s.clusters[0]!;
    names = [s.hosts[0]!.name, s.hosts[1]!.name];
    await installServices(s.h, cluster, [NODE_EXPORTER], names);
    await installServices(s.h, cluster, [ETCD], [names[0]]);
    await installServices(s.h, cluster, [NATS], [names[1]]);
  }, 900_000);

  afterAll(async () => {
    await s?.close();
  }, 180_000);

  const sheet = async (service: string, refresh = false): Promise<any> => {
    const r = refresh
      ? await s.h.api('POST', `/api/v1/clusters/${cluster}/services/${service}/sheet/refresh`)
      : await s.h.api('GET', `/api/v1/clusters/${cluster}/services/${service}/sheet`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  test('each instance as systemd has it on its host: running, its PID, uptime and memory, its liveness', async () => {
    for (const [service, hosts] of [
      ['etcd', [names[0]]],
      ['nats', [names[1]]],
      ['node-exporter', names],
    ] as const) {
      const body = await sheet(service, true);
      expect(body.overview.state, service).toBe('running');
      expect(body.instances.map((i: any) => i.name).sort()).toEqual([...hosts].sort());
      for (const i of body.instances) {
        expect(i, service).toMatchObject({ state: 'running', active_state: 'active', sub_state: 'running' });
        expect(i.main_pid).toBeGreaterThan(1);
        expect(i.uptime_s).toBeGreaterThanOrEqual(0);
        expect(i.memory_bytes).toBeGreaterThan(0);
        // The PID is the one systemd has on the host, not one the console made up.
        const host = s.hosts.find((h) => h.name === i.name)!;
        expect((await sh(host, `systemctl show -p MainPID --value ${i.unit}`)).trim()).toBe(String(i.main_pid));
      }
      expect(body.configuration.files.length).toBeGreaterThan(0);
      const listening = (port: number) => body.security.endpoints.find((e: any) => e.port === port).listening.map((l: any) => l.listening);
      expect(listening({ etcd: 2379, nats: 4222, 'node-exporter': 9100 }[service]).every((l: boolean) => l)).toBe(true);
    }
    // A single NATS server opens no route port: the sheet says what the host listens on, not what the catalog lists.
    const nats = await sheet('nats');
    expect(nats.security.endpoints.find((e: any) => e.port === 6222).listening).toEqual([{ host_name: names[1], listening: false }]);
    const deps = (await sheet('nats')).dependencies;
    expect(deps).toEqual({ depends_on: [], required_by: [] });
  });

  test('a unit stopped by hand shows stopped at the next refresh, though its last operation asked it to run', async () => {
    const host = s.hosts[1]!;
    await sh(host, 'systemctl stop navin-nats.service');
    try {
      const body = await sheet('nats', true);
      expect(body.overview.state).toBe('stopped');
      expect(body.instances[0]).toMatchObject({ state: 'stopped', active_state: 'inactive', main_pid: null, uptime_s: null });
      expect(body.security.endpoints.find((e: any) => e.port === 4222).listening[0].listening).toBe(false);
      // The service's record still holds what was asked: the sheet did not show it.
      expect((await s.h.api('GET', `/api/v1/clusters/${cluster}/services/nats`)).body.state).toBe('running');
    } finally {
      await sh(host, 'systemctl start navin-nats.service');
    }
    expect((await sheet('nats', true)).overview.state).toBe('running');
  });

  test('the host figures come from real node exporter scrapes, one sample per report', async () => {
    // Three reports a few seconds apart: CPU busy is a rate between two samples' counters.
    for (let i = 0; i < 3; i++) {
      await sheet('etcd', true);
      await new Promise((r) => setTimeout(r, 1500));
    }
    const m = (await s.h.api('GET', `/api/v1/clusters/${cluster}/services/etcd/metrics?minutes=60`)).body;
    expect(m.unobserved).toBeNull();
    const series = m.series[0];
    expect(series).toMatchObject({ host_name: names[0], source: 'node_exporter' });
    expect(series.points.length).toBeGreaterThanOrEqual(3);
    const last = series.points.at(-1);
    expect(last.cpu_busy).toBeGreaterThanOrEqual(0);
    expect(last.cpu_busy).toBeLessThanOrEqual(1);
    expect(last.memory_used_bytes).toBeGreaterThan(0);
    expect(last.memory_used_bytes).toBeLessThanOrEqual(last.memory_total_bytes);
    expect(last.fs_used_bytes).toBeLessThanOrEqual(last.fs_size_bytes);
    expect(last.unit_memory_bytes).toBeGreaterThan(0);
    // The unit's CPU is a rate between two samples of its CPU time: at least one point has it.
    expect(series.points.some((p: any) => p.unit_cpu !== null && p.unit_cpu >= 0)).toBe(true);
    // The exporter's own figure, scraped here from the host's address: the sample's total is its MemTotal.
    const scraped = await (await fetch(`http://${s.hosts[0]!.address}:9100/metrics`)).text();
    expect(last.memory_total_bytes).toBe(Number(/^node_memory_MemTotal_bytes (\S+)$/m.exec(scraped)?.[1]));
  });

  test('the journals of the instances, read by their agents', async () => {
    const r = await s.h.api('POST', `/api/v1/clusters/${cluster}/services/node-exporter/logs`, { lines: 50 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.items.map((l: any) => l.host_name).sort()).toEqual([...names].sort());
    for (const l of r.body.items) {
      expect(l.state).toBe('succeeded');
      expect(l.text).toMatch(/node.exporter/i);
    }
  });

  test('in Chromium: the twelve tabs of each service by their addresses, in English and French; a stop by hand seen after Refresh', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const browser = await openConsole(s.h.manager.url, { name: 'alice', password: 'correct horse battery' });
    try {
      const { page } = browser;
      const origin = new URL(s.h.manager.url).origin;
      for (const locale of ['en', 'fr'] as const) {
        await page.evaluate(
          (l) => localStorage.setItem('navin.ui', JSON.stringify({ state: { locale: l, theme: 'light' }, version: 1 })),
          locale,
        );
        for (const service of ['etcd', 'nats', 'node-exporter']) {
          for (const tab of TABS) {
            await page.goto(`${origin}/#/clusters/${cluster}/services/${service}/${tab}`);
            await page.reload();
            const sheetEl = page.getByTestId('service-sheet');
            await sheetEl.and(page.locator(`[data-tab="${tab}"]`)).waitFor();
            await page.getByTestId(`panel-${tab}`).waitFor();
            expect(await page.locator('html').getAttribute('lang')).toBe(locale);
            await expect.poll(() => page.getByTestId('sheet-state').getAttribute('data-state')).toBe('running');
            await observed(page, service, tab);
            await page.screenshot({ path: join(SHOTS, `${service}-${tab}-${locale}.png`), fullPage: true });
          }
        }
      }
      // Stopped by hand, seen at the next Refresh of the open sheet.
      await page.goto(`${origin}/#/clusters/${cluster}/services/nats/instances`);
      await page.getByTestId('sheet-instance').first().waitFor();
      await sh(s.hosts[1]!, 'systemctl stop navin-nats.service');
      try {
        await page.getByTestId('sheet-refresh').click();
        await expect.poll(() => page.getByTestId('instance-state').first().getAttribute('data-state'), { timeout: 20_000 }).toBe('stopped');
        expect(await page.getByTestId('sheet-state').getAttribute('data-state')).toBe('stopped');
        await page.screenshot({ path: join(SHOTS, 'nats-stopped-by-hand-fr.png'), fullPage: true });
      } finally {
        await sh(s.hosts[1]!, 'systemctl start navin-nats.service');
      }
    } finally {
      await browser.close();
    }
  });
});

/** What each tab shows that only an agent could have observed. */
async function observed(page: Page, service: string, tab: string): Promise<void> {
  const stateful = service !== 'node-exporter';
  switch (tab) {
    case 'overview':
      await page.getByTestId('overview-liveness').first().and(page.locator('[data-status="pass"]')).waitFor();
      return;
    case 'instances':
      await page.locator('[data-testid="sheet-instance"][data-state="running"]').first().waitFor();
      expect(Number(await page.getByTestId('instance-restarts').first().textContent())).toBeGreaterThanOrEqual(0);
      return;
    case 'configuration':
      await page.getByTestId('sheet-file').first().waitFor();
      await page.getByTestId('sheet-config-version').first().waitFor();
      return;
    case 'dependencies':
    case 'backups':
      if (tab === 'dependencies' || !stateful) await page.getByTestId('sheet-unobserved-reason').waitFor();
      else await page.getByTestId('service-back-up-now').waitFor();
      return;
    case 'logs':
      await expect
        .poll(() => page.locator('[data-testid="sheet-log"][data-state="succeeded"]').count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      expect((await page.getByTestId('sheet-log-lines').first().textContent())!.length).toBeGreaterThan(0);
      return;
    case 'metrics':
      await page.locator('[data-testid="sheet-metrics-source"][data-source="node_exporter"]').first().waitFor();
      for (const chart of ['chart-cpu', 'chart-memory', 'chart-fs']) {
        const c = page.getByTestId(chart);
        await c.locator('canvas').waitFor();
        // A rate needs two samples (one per 5 s); the chart is redrawn as hosts report, so a busy host's second
        // sample may come after the first draw.
        await expect
          .poll(async () => Number(await c.getAttribute('data-points')), { message: chart, timeout: 30_000 })
          .toBeGreaterThanOrEqual(2);
      }
      return;
    case 'security':
      await page.locator('[data-testid="sheet-endpoint-listening"][data-listening="true"]').first().waitFor();
      return;
    case 'operations':
      await page.locator('[data-testid="sheet-operation"][data-action="install"][data-state="succeeded"]').first().waitFor();
      return;
    case 'upgrade':
      await page.getByTestId('service-upgrade').waitFor();
      return;
    case 'audit':
      await page.locator('[data-testid="sheet-audit-row"][data-action="service.install"]').first().waitFor();
      return;
    case 'support':
      await page.getByTestId('cluster-support').waitFor();
      return;
  }
}
