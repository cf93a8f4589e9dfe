// The Services tab of hosts clusters: its store (the list of the open cluster, reloaded on that cluster's
// service and command events only, the catalog, install and actions posting what the contract declares), and
// its parts rendered as markup: the newest operation's progress bar and each task of each host's plan, the
// services table with its latest checks.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CatalogList, CheckOutcome, OperationView, PlanTaskView, ServiceView } from '../../preload/api';
import { ServiceOperation } from '../../renderer/src/features/services/ServiceOperation';
import { ServicesTable } from '../../renderer/src/features/services/ServicesTable';
import { routeFromHash } from '../../renderer/src/stores/router';
import { createServicesStore, installRequest, shownOperationService } from '../../renderer/src/features/services/store';
import { FakeApi, flush, makeClient } from './support/fake-api';

const outcome = (status: 'pass' | 'fail', patch: Partial<CheckOutcome> = {}): CheckOutcome => ({
  kind: 'etcd.kv',
  status,
  started_at: '2026-01-01T00:00:00Z',
  duration_ms: 40,
  method: 'put, get and delete a key',
  evidence: { key: 'navin-check' },
  ...(status === 'fail' ? { error: { code: 'value_mismatch', message: 'read back another value' } } : {}),
  ...patch,
});

const task = (index: number, id: string, status: PlanTaskView['status'], patch: Partial<PlanTaskView> = {}): PlanTaskView => ({
  index,
  id,
  kind: 'systemd.restart',
  title: `task ${id}`,
  status,
  started_at: null,
  finished_at: null,
  duration_ms: null,
  code: null,
  message: null,
  output: null,
  resumed: false,
  ...patch,
});

const operation = (patch: Partial<OperationView> = {}): OperationView => ({
  id: 'op-1',
  cluster_id: 'c-1',
  service: 'etcd',
  action: 'install',
  version: '3.5.17',
  state: 'running',
  code: null,
  message: null,
  phase: 1,
  phases: [
    {
      name: 'install',
      hosts: ['node-1', 'node-2'],
      plans: ['node-1', 'node-2'].map((host, i) => ({
        command_id: `cmd-${host}`,
        host_id: `h-${host}`,
        host_name: host,
        state: 'succeeded' as const,
        code: null,
        title: `install etcd 3.5.17 on ${host}`,
        total: 2,
        succeeded: 2,
        failed_task: null,
        tasks: [
          task(0, 'enable', 'succeeded', { kind: 'systemd.enable', duration_ms: 120 + i }),
          task(1, 'liveness', 'succeeded', { kind: 'check', duration_ms: 2300, output: { check: outcome('pass') } }),
        ],
      })),
    },
    {
      name: 'readiness and functional test',
      hosts: ['node-1'],
      plans: [
        {
          command_id: 'cmd-final',
          host_id: 'h-node-1',
          host_name: 'node-1',
          state: 'delivered',
          code: null,
          title: 'etcd: readiness and functional test',
          total: 2,
          succeeded: 0,
          failed_task: 'functional',
          tasks: [
            task(0, 'readiness', 'running', { kind: 'check' }),
            task(1, 'functional', 'failed', {
              kind: 'check',
              code: 'check_failed',
              message: 'etcd.kv: read back another value',
              output: { check: outcome('fail') },
            }),
          ],
        },
      ],
    },
  ],
  progress: { done: 4, total: 6 },
  requested_by: 'alice',
  created_at: '2026-01-01T00:00:00Z',
  finished_at: null,
  ...patch,
});

const service = (name: string, patch: Partial<ServiceView> = {}): ServiceView => ({
  service: name,
  title: name.toUpperCase(),
  version: '3.5.17',
  state: 'running',
  hosts: [
    { id: 'h-node-1', name: 'node-1', address: '10.0.0.1' },
    { id: 'h-node-2', name: 'node-2', address: '10.0.0.2' },
  ],
  config: {},
  config_version: 1,
  checks: null,
  checks_at: null,
  operation: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...patch,
});

const catalog: CatalogList = {
  valid: true,
  digest: 'sha256:0',
  files: [],
  services: [
    {
      service: 'etcd',
      title: 'etcd',
      description: 'key-value store',
      stateful: true,
      supports_tls: true,
      ports: {},
      resources: { min_cpu: '1', min_memory: '1Gi' },
      checks: { liveness: 'etcd.health', readiness: 'etcd.cluster', functional: 'etcd.kv' },
      backup: true,
      versions: [],
    },
  ],
};

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('services store', () => {
  it('loads the services and the catalog of the open cluster and reloads on its service and command events, not another’s', async () => {
    const api = new FakeApi();
    let items = [service('etcd', { state: 'installing', operation: operation() })];
    api.on('GET /api/v1/clusters/c-1/services', () => ({ status: 200, body: { items } }));
    api.on('GET /api/v1/catalog', { status: 200, body: catalog });
    const store = createServicesStore({ client: makeClient(api), eventDebounceMs: 5 });
    const stop = store.getState().startLive();
    await store.getState().open('c-1');
    expect(store.getState()).toMatchObject({ status: 'ready', items: [{ service: 'etcd', state: 'installing' }] });
    expect(store.getState().catalog.map((s) => s.service)).toEqual(['etcd']);

    items = [service('etcd', { operation: operation({ state: 'succeeded', progress: { done: 6, total: 6 } }) })];
    api.emit({ type: 'service.changed', data: { cluster_id: 'c-2', service: 'etcd', operation_id: 'op-9' } });
    await wait(20);
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/services')).toHaveLength(1);

    api.emit({ type: 'service.changed', data: { cluster_id: 'c-1', service: 'etcd', operation_id: 'op-1' } });
    api.emit({ type: 'service.changed', data: { cluster_id: 'c-1', service: 'etcd', operation_id: 'op-1' } });
    await wait(20);
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/services')).toHaveLength(2);
    expect(store.getState().items[0]).toMatchObject({ state: 'running', operation: { state: 'succeeded', progress: { done: 6 } } });

    api.emit({ type: 'command.changed', data: { id: 'cmd-final', cluster_id: 'c-1', host_id: 'h-node-1' } });
    await wait(20);
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/services')).toHaveLength(3);
    stop();
  });

  it('installs with the body the form builds (hosts checked, in the cluster’s order) and keeps a refusal with its details', async () => {
    const body = installRequest({
      service: 'etcd',
      version: '3.5.17',
      hostOrder: ['h-node-1', 'h-node-2', 'h-node-3'],
      checked: new Set(['h-node-3', 'h-node-1']),
      approvalId: '',
    });
    expect(body).toEqual({ service: 'etcd', version: '3.5.17', hosts: ['h-node-1', 'h-node-3'] });
    expect(installRequest({ service: 'nats', version: '2.10', hostOrder: ['h-1'], checked: new Set(['h-1']), approvalId: 'ap-1' })).toEqual(
      { service: 'nats', version: '2.10', hosts: ['h-1'], approval_id: 'ap-1' },
    );

    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1/services', { status: 200, body: { items: [] } });
    api.on('GET /api/v1/catalog', { status: 200, body: catalog });
    api.on('POST /api/v1/clusters/c-1/services', { status: 202, body: operation({ phase: 0 }) });
    const store = createServicesStore({ client: makeClient(api) });
    await store.getState().open('c-1');
    expect(await store.getState().install(body)).toMatchObject({ id: 'op-1', service: 'etcd' });
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/services')[0]!.body).toEqual({
      service: 'etcd',
      version: '3.5.17',
      hosts: ['h-node-1', 'h-node-3'],
    });
    await flush();
    expect(api.callsTo('GET', '/api/v1/clusters/c-1/services')).toHaveLength(2);

    const run = { id: 'pf-1', checks: [{ id: 'hosts.disks', status: 'fail', title: { en: 'Disk space', fr: 'Espace disque' } }] };
    api.on('POST /api/v1/clusters/c-1/services', {
      status: 422,
      body: { error: { code: 'preflight_failed', message: 'a critical preflight check failed', details: { run } } },
    });
    expect(await store.getState().install(body)).toBeNull();
    expect(store.getState().installing).toMatchObject({
      pending: false,
      service: 'etcd',
      error: { code: 'preflight_failed', details: { run } },
    });
  });

  it('runs an action with its approval only when one is given', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/clusters/c-1/services', { status: 200, body: { items: [service('etcd')] } });
    api.on('GET /api/v1/catalog', { status: 200, body: catalog });
    api.on('POST /api/v1/clusters/c-1/services/etcd/actions', { status: 202, body: operation({ action: 'stop' }) });
    const store = createServicesStore({ client: makeClient(api) });
    await store.getState().open('c-1');
    await store.getState().runAction('etcd', 'check');
    await store.getState().runAction('etcd', 'uninstall', 'ap-7');
    expect(api.callsTo('POST', '/api/v1/clusters/c-1/services/etcd/actions').map((c) => c.body)).toEqual([
      { action: 'check' },
      { action: 'uninstall', approval_id: 'ap-7' },
    ]);
    expect(store.getState().items[0]!.operation?.action).toBe('stop');
  });

  it('is a tab of its own address', () => {
    expect(routeFromHash('#/clusters/c-1/services')).toMatchObject({ screen: 'clusters', clusterId: 'c-1', clusterTab: 'services' });
  });

  it('shows the operation picked, else the one running, and none once hidden', () => {
    const items = [service('etcd', { operation: operation({ state: 'succeeded' }) }), service('nats', { operation: operation() })];
    expect(shownOperationService(items, undefined)?.service).toBe('nats');
    expect(shownOperationService(items, 'etcd')?.service).toBe('etcd');
    expect(shownOperationService(items, null)).toBeNull();
  });
});

describe('services tab markup', () => {
  it('shows the operation’s progress bar and every task of every host’s plan, a check’s outcome folded', () => {
    const html = renderToStaticMarkup(createElement(ServiceOperation, { operation: operation() }));
    const progress = html.match(/<progress[^>]*>/)?.[0] ?? '';
    expect(progress).toContain('max="6"');
    expect(progress).toContain('value="4"');
    expect(progress).toContain('aria-label="Progress of Install: etcd 3.5.17"');
    expect(html).toContain('4 of 6 tasks done');
    expect(count(html, 'data-testid="operation-phase"')).toBe(2);
    expect(count(html, 'data-testid="operation-plan"')).toBe(3);
    const rows = [...html.matchAll(/<tr data-testid="operation-task" data-task-id="([^"]+)" data-status="([^"]+)"/g)].map(
      (m) => `${m[1]}:${m[2]}`,
    );
    expect(rows).toEqual([
      'enable:succeeded',
      'liveness:succeeded',
      'enable:succeeded',
      'liveness:succeeded',
      'readiness:running',
      'functional:failed',
    ]);
    expect(html).toContain('Phase 2 of 2: Readiness and functional test');
    expect(html).toContain('120 ms');
    expect(html).toContain('2.3 s');
    // The failed functional test: its code, its message, its outcome open with the check's error code and evidence.
    expect(html).toContain('data-code="check_failed"');
    expect(html).toContain('etcd.kv: read back another value');
    expect(html).toMatch(/<details class="advanced task-output" open="">/);
    expect(html).toMatch(/data-testid="task-check" data-status="fail"/);
    expect(html).toContain('<code data-testid="check-error-code">value_mismatch</code>');
    expect(html).toContain('navin-check');
  });

  it('lists each service with its state, hosts and latest checks (liveness per host)', () => {
    const checks = {
      liveness: {
        'h-node-1': { at: '2026-01-01T00:00:00Z', outcome: outcome('pass', { kind: 'etcd.health' }) },
        'h-node-2': {
          at: '2026-01-01T00:00:00Z',
          outcome: outcome('fail', { kind: 'etcd.health', error: { code: 'unreachable', message: 'refused' } }),
        },
      },
      readiness: { at: '2026-01-01T00:00:00Z', host_id: 'h-node-1', outcome: outcome('pass', { kind: 'etcd.cluster' }) },
      functional: null,
    };
    const items = [service('etcd', { checks, operation: operation() }), service('nats', { state: 'stopped' })];
    const noop = (): void => undefined;
    const html = renderToStaticMarkup(
      createElement(ServicesTable, { clusterId: 'c-1', items, canWrite: true, shown: 'etcd', onShow: noop, onAction: noop }),
    );
    expect(count(html, 'data-testid="service-row"')).toBe(2);
    // Each service opens its component sheet.
    expect(html).toContain('href="#/clusters/c-1/services/etcd"');
    expect(html).toMatch(/data-testid="service-state" data-state="stopped"/);
    const checkCells = [...html.matchAll(/data-testid="service-check" data-role="([a-z]+)" data-status="([a-z]+)"/g)].map(
      (m) => `${m[1]}:${m[2]}`,
    );
    expect(checkCells).toEqual(['liveness:pass', 'liveness:fail', 'readiness:pass']);
    expect(html).toContain('<code class="check-code">unreachable</code>');
    // An operation running: the actions wait for it; the other service's are open.
    const uninstall = [...html.matchAll(/<button[^>]*data-testid="service-uninstall"[^>]*>/g)].map((m) => m[0].includes('disabled=""'));
    expect(uninstall).toEqual([true, false]);
    expect(html).toContain('aria-expanded="true"');
  });
});

const count = (html: string, needle: string): number => html.split(needle).length - 1;
