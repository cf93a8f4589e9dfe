// Node exporter checks against Debian's prometheus-node-exporter 1.5 run here on loopback, and the generic tcp
// and http liveness kinds on its port. The metrics it reports are compared with what this machine says itself.
import { cpus, totalmem } from 'node:os';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCheck } from '../../../agent/checks';
import { startNodeExporter, type NodeExporter } from '../../support/services/node-exporter';
import { freePorts } from '../../support/services/ports';

let exporter: NodeExporter;
beforeAll(async () => {
  exporter = await startNodeExporter();
});
afterAll(() => exporter?.stop());

test('liveness on /metrics and the functional test pass, with CPU and memory as this machine counts them', async () => {
  expect(await runCheck('tcp', { port: exporter.port })).toMatchObject({ status: 'pass' });
  expect(await runCheck('http', { port: exporter.port, path: '/metrics' })).toMatchObject({ status: 'pass', evidence: { status: 200 } });
  const smoke = await runCheck('node_exporter.metrics', { url: exporter.metricsUrl });
  expect(smoke.status, JSON.stringify(smoke.error)).toBe('pass');
  expect(smoke.evidence).toMatchObject({
    exporter: { version: '1.5.0' },
    cpu: { cpus: cpus().length },
    memory: { total_bytes: totalmem() },
  });
  const memory = smoke.evidence.memory as { total_bytes: number; available_bytes: number };
  expect(memory.available_bytes).toBeGreaterThan(0);
  expect((smoke.evidence.filesystems as { count: number }).count).toBeGreaterThan(0);
  expect(smoke.steps?.map((s) => s.status)).toEqual(['pass', 'pass', 'pass']);
});

test('an exporter whose memory and file system collectors are off fails the functional test, naming what is missing', async () => {
  const cpuOnly = await startNodeExporter(['--collector.disable-defaults', '--collector.cpu']);
  try {
    // Liveness cannot tell: the port answers and /metrics is served.
    expect((await runCheck('http', { port: cpuOnly.port, path: '/metrics' })).status).toBe('pass');
    const smoke = await runCheck('node_exporter.metrics', { url: cpuOnly.metricsUrl });
    expect(smoke).toMatchObject({ status: 'fail', error: { code: 'metrics_missing' } });
    expect(smoke.evidence.missing).toEqual([
      'node_memory_MemTotal_bytes',
      'node_memory_MemAvailable_bytes',
      'node_filesystem_size_bytes',
      'node_filesystem_avail_bytes',
    ]);
  } finally {
    await cpuOnly.stop();
  }
});

test('a page that is not Prometheus text format fails the scrape step, which liveness on a wrong path cannot see', async () => {
  const landing = await runCheck('node_exporter.metrics', { url: `http://127.0.0.1:${exporter.port}/` });
  expect(landing).toMatchObject({ status: 'fail', error: { code: 'unexpected_response' } });
  expect(landing.steps?.map((s) => [s.name, s.status])).toEqual([['scrape', 'fail']]);
  expect(landing.error!.message).toMatch(/served text\/html/);
  // The exporter serves its landing page with 200 on any path: a mistyped metrics path passes liveness and only
  // the functional test tells.
  const typo = `http://127.0.0.1:${exporter.port}/metric`;
  expect(await runCheck('http', { port: exporter.port, path: '/metric' })).toMatchObject({ status: 'pass', evidence: { status: 200 } });
  expect(await runCheck('node_exporter.metrics', { url: typo })).toMatchObject({ status: 'fail', error: { code: 'unexpected_response' } });
  expect(await runCheck('http', { port: exporter.port, path: '/metrics', expect_status: 204 })).toMatchObject({
    status: 'fail',
    error: { code: 'http_status' },
    evidence: { status: 200 },
  });
});

test('a wrong port and a stopped exporter fail liveness and the functional test as unreachable', async () => {
  const [wrong] = (await freePorts(1)) as [number];
  expect(await runCheck('tcp', { port: wrong, timeout_ms: 2000 })).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
  await exporter.stop();
  try {
    expect(await runCheck('http', { port: exporter.port, path: '/metrics', timeout_ms: 2000 })).toMatchObject({
      status: 'fail',
      error: { code: 'unreachable' },
    });
    expect(await runCheck('tcp', { port: exporter.port, timeout_ms: 2000 })).toMatchObject({
      status: 'fail',
      error: { code: 'unreachable' },
    });
    const smoke = await runCheck('node_exporter.metrics', { url: exporter.metricsUrl, timeout_ms: 2000 });
    expect(smoke).toMatchObject({ status: 'fail', error: { code: 'unreachable' } });
  } finally {
    await exporter.start();
  }
});
