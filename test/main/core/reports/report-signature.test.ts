// The auditor's check of a downloaded report with the built CLI: the JSON served by GET /api/v1/reports/{id}
// passes `navin-manager verify-report` with the manager.pem the API serves; turning one FAIL into PASS breaks it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SignedReport } from '../../../../main/contract/report-types';
import type { Credentials } from '../../../../main/core/http/router';
import { runCli } from '../../../support/cli';
import { tempDir } from '../../../support/temp-dir';
import { testManager, type TestManager } from '../../../support/manager';

describe('a downloaded acceptance report and verify-report', () => {
  let t: TestManager;
  const dir = tempDir('navin-report-');
  let doc: SignedReport;
  let pem: string;

  beforeAll(async () => {
    t = testManager();
    const op: Credentials = await t.login('olga', 'operator');
    const clusterId = t.manager.clusters.create({ name: 'edge' }, 'test').id;
    const run = await t.call('POST', `/api/v1/clusters/${clusterId}/acceptance`, undefined, op);
    expect(run.status).toBe(201);
    const id = (run.body as SignedReport).payload.report_id;
    const got = await t.call('GET', `/api/v1/reports/${id}`, undefined, op);
    expect(got.status).toBe(200);
    doc = got.body as SignedReport;
    // As the HTTPS transport sends it: the object serialised as JSON.
    writeFileSync(join(dir.path, 'report.json'), JSON.stringify(doc));
    pem = (await t.call('GET', '/api/v1/keys/manager.pem', undefined, op)).body as string;
    writeFileSync(join(dir.path, 'manager.pem'), pem);
  });
  afterAll(() => {
    t?.close();
    dir.remove();
  });

  test('the JSON exactly as downloaded is valid against manager.pem (exit 0)', () => {
    const r = runCli(['verify-report', '--file', join(dir.path, 'report.json'), '--public-key', join(dir.path, 'manager.pem')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^valid/);
  });

  test('a copy with one line turned from FAIL to PASS is refused with signature_invalid (exit 1)', () => {
    const tampered = structuredClone(doc);
    const failed = tampered.payload.lines.find((l) => l.status === 'FAIL');
    expect(failed, 'the report of a cluster without agent has a FAIL line').toBeDefined();
    failed!.status = 'PASS';
    writeFileSync(join(dir.path, 'tampered.json'), JSON.stringify(tampered, null, 2));
    const r = runCli(['verify-report', '--file', join(dir.path, 'tampered.json'), '--public-key', join(dir.path, 'manager.pem')]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^invalid: signature_invalid/);
  });
});
