// Configuration backups against the Kubernetes API test server: each ManagedComponent and the desired state
// in its own 0600 file, sha256 recorded and matching, a modified or missing file detected; a dead API server
// leaves no record and no folder. Also the two routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CoreV1Api } from '@kubernetes/client-node';
import { Backups, type BackupSetView } from '../../../../main/core/backups/backups';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import { Router, type ApiResult, type Credentials, type Method } from '../../../../main/core/http/router';
import { backupRoutes } from '../../../../main/core/backups/routes';
import type { CoreError } from '../../../../main/core/errors';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';
import { testManager, type TestManager } from '../../../support/manager';

const NS = 'navin-backup-test';
const mc = (name: string, component: string, version: string) =>
  stringify({
    apiVersion: 'platform.navin.ai/v1alpha1',
    kind: 'ManagedComponent',
    metadata: { name, namespace: NS },
    spec: { component, version, replicas: 1 },
  });
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('configuration backups', () => {
  let target: KubeTarget;
  let tm: TestManager;
  let backups: Backups;
  let clusterId: string;
  let set: BackupSetView;
  const setDir = (s: BackupSetView) => join(tm.dataDir, 'backups', s.cluster_id, s.id);

  beforeAll(async () => {
    target = await kubeTarget();
    await target.apply(importRbacYaml(NS, 'edge'));
    await target.apply(`${mc('opa', 'opa', '1.21.3')}---\n${mc('etcd', 'etcd', '3.5.20')}`);
    tm = testManager();
    backups = new Backups({
      store: tm.manager.store,
      tables: tm.manager.tables,
      registration: tm.manager.registration,
      clock: tm.manager.clock,
      dataDir: tm.dataDir,
      events: tm.manager.events,
      timeoutMs: 5000,
    });
    clusterId = tm.manager.clusters.create({ name: 'edge' }, 'test').id;
    await tm.manager.registration.register(clusterId, target.kubeconfigFor(await target.createToken(NS, 'navin-import')), NS, 'test');
    tm.manager.commands.issue(
      clusterId,
      'managedcomponent.apply',
      { name: 'opa', spec: { component: 'opa', version: '1.21.3', replicas: 1 } },
      'test',
    );
    set = await backups.run(clusterId, 'olga');
  });
  afterAll(async () => {
    tm?.close();
    if (target?.kind === 'cluster') await target.kubeConfig().makeApiClient(CoreV1Api).deleteNamespace({ name: NS });
    await target?.close();
  });

  it('writes one JSON file per ManagedComponent plus the desired state, private to the manager', () => {
    expect(set.files.map((f) => f.name).sort()).toEqual(['desired-state', 'managedcomponent/etcd', 'managedcomponent/opa']);
    const dir = setDir(set);
    expect(readdirSync(dir).sort()).toEqual(['desired-state.json', 'managedcomponent.etcd.json', 'managedcomponent.opa.json']);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(tm.dataDir, 'backups', clusterId)).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    const etcd = JSON.parse(readFileSync(join(dir, 'managedcomponent.etcd.json'), 'utf8')) as {
      kind: string;
      metadata: Record<string, unknown>;
      spec: unknown;
    };
    expect(etcd).toMatchObject({
      kind: 'ManagedComponent',
      metadata: { name: 'etcd', namespace: NS },
      spec: { component: 'etcd', version: '3.5.20' },
    });
    expect(etcd.metadata.managedFields).toBeUndefined();
    const desired = JSON.parse(readFileSync(join(dir, 'desired-state.json'), 'utf8')) as {
      generation: number;
      components: Record<string, unknown>;
    };
    expect(desired.generation).toBe(set.generation);
    expect(set.generation).toBeGreaterThan(0);
    expect(Object.keys(desired.components)).toEqual(['opa']);
  });

  it('records the set with the sha256 and size of each file, audited', () => {
    for (const f of set.files) {
      const file = join(setDir(set), f.file);
      expect(f.sha256).toBe(sha(file));
      expect(f.size).toBe(statSync(file).size);
    }
    expect(backups.list(clusterId)).toEqual([set]);
    expect(set.source).toContain(`/namespaces/${NS}/managedcomponents`);
    const audit = tm.manager.store.db.prepare("SELECT actor, target, details FROM audit_log WHERE action = 'backup.run'").all() as {
      actor: string;
      target: string;
      details: string;
    }[];
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'olga', target: set.id });
    expect((JSON.parse(audit[0]!.details) as { files: unknown[] }).files).toHaveLength(3);
  });

  it("gives a restorable spec for the set's components only: an inherited name such as constructor is not_found", () => {
    expect(backups.restorableSpec(clusterId, set.id, 'opa')).toMatchObject({ component: 'opa' });
    for (const name of ['constructor', 'toString', '__proto__', 'absent'])
      expect(() => backups.restorableSpec(clusterId, set.id, name), name).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('verify finds every file intact, then names a modified one and a missing one', () => {
    expect(backups.verify(set.id)).toMatchObject({ ok: true, mismatches: [] });
    const dir = setDir(set);
    writeFileSync(
      join(dir, 'managedcomponent.opa.json'),
      readFileSync(join(dir, 'managedcomponent.opa.json'), 'utf8').replace('1.21.3', '1.21.9'),
    );
    const modified = backups.verify(set.id);
    expect(modified.ok).toBe(false);
    expect(modified.mismatches).toEqual([
      expect.objectContaining({
        name: 'managedcomponent/opa',
        status: 'modified',
        sha256: set.files.find((f) => f.name === 'managedcomponent/opa')!.sha256,
        actual_sha256: sha(join(dir, 'managedcomponent.opa.json')),
      }),
    ]);
    rmSync(join(dir, 'desired-state.json'));
    expect(
      backups
        .verify(set.id)
        .mismatches.map((m) => [m.name, m.status])
        .sort(),
    ).toEqual([
      ['desired-state', 'missing'],
      ['managedcomponent/opa', 'modified'],
    ]);
    expect(() => backups.verify('nope')).toThrow(/not found/);
  });

  it('refuses an unregistered cluster with not_registered, writing nothing', async () => {
    const bare = tm.manager.clusters.create({ name: 'bare' }, 'test').id;
    await expect(backups.run(bare, 'olga')).rejects.toMatchObject({ code: 'not_registered' });
    expect(existsSync(join(tm.dataDir, 'backups', bare))).toBe(false);
  });

  it('serves POST (operator, 201) and GET (viewer) /clusters/:id/backups', async () => {
    const router = new Router();
    backupRoutes(router);
    const call = (method: Method, path: string, credentials: Credentials): Promise<ApiResult> =>
      router.handle(tm.manager, { method, path, query: new URLSearchParams(), body: undefined, credentials });
    const op = await tm.login('olga', 'operator');
    const viewer = await tm.login('vic', 'viewer');
    expect((await call('POST', `/api/v1/clusters/${clusterId}/backups`, viewer)).status).toBe(403);
    const created = await call('POST', `/api/v1/clusters/${clusterId}/backups`, op);
    expect(created.status).toBe(201);
    expect((created.body as BackupSetView).created_by).toBe('olga');
    const listed = await call('GET', `/api/v1/clusters/${clusterId}/backups`, viewer);
    expect(listed.status).toBe(200);
    expect((listed.body as { items: BackupSetView[] }).items.map((s) => s.id)).toEqual(
      expect.arrayContaining([set.id, (created.body as BackupSetView).id]),
    );
    const bare = tm.manager.clusters.create({ name: 'bare-api' }, 'test').id;
    const refused = await call('POST', `/api/v1/clusters/${bare}/backups`, op);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'not_registered' } });
  });

  // Last: it stops the API server.
  it('fails with api_unreachable when the API server is down, recording nothing and leaving no folder', async (ctx) => {
    if (!target.server) ctx.skip();
    const before = backups.list(clusterId).length;
    const entriesBefore = readdirSync(join(tm.dataDir, 'backups', clusterId)).sort();
    await target.server!.stop();
    let error: CoreError | undefined;
    try {
      await backups.run(clusterId, 'olga');
    } catch (e) {
      error = e as CoreError;
    }
    expect(error?.code).toBe('api_unreachable');
    expect(backups.list(clusterId)).toHaveLength(before);
    expect(readdirSync(join(tm.dataDir, 'backups', clusterId)).sort()).toEqual(entriesBefore);
  });
});
