// The lifecycle gate through the console API: a blocked profile refuses installs, starts and restarts with
// profile_blocked but lets stop, configuration, backup and uninstall through; under banking-secure every
// disruptive operation needs an approval used once, by its requester, for that action and service, within 24 h.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { stringify } from 'yaml';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import type { PublicUser } from '../../../../main/core/accounts/accounts';
import type { Credentials } from '../../../../main/core/http/router';
import { ManualClock } from '../../../support/clock';
import { testManager, type TestManager } from '../../../support/manager';
import { kubeTarget, type KubeTarget } from '../../../support/kube-api/target';

const NS = 'navin-platform';
const OPA = { component: 'opa', version: '1.0.0', replicas: 2 };
const errorOf = (body: unknown) => (body as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;

describe('a blocked profile', () => {
  let t: TestManager;
  let kube: KubeTarget;
  let olga: Credentials;
  let clusterId: string;
  const commandCount = (): number => t.manager.commands.list(clusterId).length;
  let backupSet: { id: string; files: { name: string; file: string }[] };

  beforeAll(async () => {
    kube = await kubeTarget();
    await kube.apply(importRbacYaml(NS, 'edge'));
    t = testManager();
    olga = await t.login('olga', 'operator');
    // An admin without TOTP: the standard profile is blocked on its MFA rule.
    await t.manager.accounts.addUser('ada', 'admin', 'correct horse battery', 'test');
    clusterId = t.manager.clusters.create({ name: 'edge', profile: 'standard' }, 'test').id;
    await t.manager.registration.register(clusterId, kube.kubeconfigFor(await kube.createToken(NS, 'navin-import')), NS, 'test');
    t.manager.commands.issue(clusterId, 'managedcomponent.apply', { name: 'opa', spec: OPA }, 'test');
    await kube.apply(
      stringify({
        apiVersion: 'platform.navin.ai/v1alpha1',
        kind: 'ManagedComponent',
        metadata: { name: 'opa', namespace: NS },
        spec: OPA,
      }),
    );
  });
  afterAll(async () => {
    t?.close();
    await kube?.close();
  });

  it('refuses an install with profile_blocked, naming each failing rule, and queues nothing', async () => {
    const before = commandCount();
    const res = await t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/components`,
      { name: 'nats', spec: { component: 'nats', version: '2.10.0' } },
      olga,
    );
    expect(res.status).toBe(409);
    const e = errorOf(res.body);
    expect(e.code).toBe('profile_blocked');
    expect((e.details!.failing as { id: string }[]).map((f) => f.id)).toContain('profile.mfa_admin_roles');
    expect(commandCount()).toBe(before);
    expect(
      t.manager.store.audit
        .list({ cluster_id: clusterId })
        .some((r) => r.action === 'lifecycle.refused' && r.details.code === 'profile_blocked'),
    ).toBe(true);
  });

  it('still allows a backup, a stop and a configuration, then refuses start and restart, and allows the uninstall', async () => {
    const backup = await t.call('POST', `/api/v1/clusters/${clusterId}/backups`, {}, olga);
    expect(backup.status).toBe(201);
    expect((backup.body as { files: { name: string }[] }).files.map((f) => f.name)).toContain('managedcomponent/opa');
    backupSet = backup.body as { id: string; files: { name: string; file: string }[] };

    const stop = await t.call('POST', `/api/v1/clusters/${clusterId}/components/opa/actions`, { action: 'stop' }, olga);
    expect(stop.status).toBe(202);
    expect(stop.body).toMatchObject({ action: 'stop', op: 'managedcomponent.apply', args: { spec: { replicas: 0 } } });

    const start = await t.call('POST', `/api/v1/clusters/${clusterId}/components/opa/actions`, { action: 'start' }, olga);
    expect(errorOf(start.body).code).toBe('profile_blocked');

    const config = await t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/components`,
      { name: 'opa', spec: { ...OPA, replicas: 0, config: { decision_logs: true } } },
      olga,
    );
    expect(config.status).toBe(202);
    expect(config.body).toMatchObject({ action: 'configuration' });

    const restart = await t.call('POST', `/api/v1/clusters/${clusterId}/components/opa/actions`, { action: 'restart' }, olga);
    expect(errorOf(restart.body).code).toBe('not_running');

    const uninstall = await t.call('DELETE', `/api/v1/clusters/${clusterId}/components/opa`, undefined, olga);
    expect(uninstall.status).toBe(202);
    expect(uninstall.body).toMatchObject({ action: 'uninstall', op: 'managedcomponent.delete' });
  });

  it('restores an uninstalled component from a backup set, and refuses a set whose files changed', async () => {
    expect(t.manager.tables.commands.desiredState(clusterId)!.components).not.toHaveProperty('opa');
    const restored = await t.call('POST', `/api/v1/clusters/${clusterId}/backups/${backupSet.id}/restore`, { service: 'opa' }, olga);
    expect(restored.status).toBe(202);
    expect(restored.body).toMatchObject({ action: 'restore', op: 'managedcomponent.apply' });
    expect(t.manager.tables.commands.desiredState(clusterId)!.components.opa).toEqual(OPA);

    const file = join(t.dataDir, 'backups', clusterId, backupSet.id, backupSet.files.find((f) => f.name === 'desired-state')!.file);
    const tampered = JSON.parse(readFileSync(file, 'utf8')) as { components: { opa: { replicas: number } } };
    tampered.components.opa.replicas = 9;
    writeFileSync(file, JSON.stringify(tampered, null, 2));
    const before = commandCount();
    const refused = await t.call('POST', `/api/v1/clusters/${clusterId}/backups/${backupSet.id}/restore`, { service: 'opa' }, olga);
    expect(refused.status).toBe(409);
    expect(errorOf(refused.body).code).toBe('backup_modified');
    expect(commandCount()).toBe(before);
    const verify = await t.call('GET', `/api/v1/clusters/${clusterId}/backups/${backupSet.id}/verify`, undefined, olga);
    expect(verify.body).toMatchObject({ ok: false, mismatches: [expect.objectContaining({ name: 'desired-state', status: 'modified' })] });
  });

  it('an apply cannot carry a start, a restart or an upgrade past the gate by calling itself a configuration', async () => {
    t.manager.commands.issue(
      clusterId,
      'managedcomponent.apply',
      { name: 'nats', spec: { component: 'nats', version: '2.10.0', replicas: 0 } },
      'test',
    );
    const apply = (spec: Record<string, unknown>) =>
      t.call(
        'POST',
        `/api/v1/clusters/${clusterId}/components`,
        { name: 'nats', spec: { component: 'nats', version: '2.10.0', ...spec } },
        olga,
      );
    const before = commandCount();
    const started = await apply({ replicas: 3 });
    expect(errorOf(started.body)).toMatchObject({ code: 'profile_blocked', details: { action: 'start' } });
    const restarted = await apply({ replicas: 0, restartedAt: '2026-12-02T12:00:00Z' });
    expect(errorOf(restarted.body)).toMatchObject({ code: 'profile_blocked', details: { action: 'restart' } });
    const image = await apply({ replicas: 0, artifacts: [{ name: 'nats', image: `docker.io/library/nats@sha256:${'a'.repeat(64)}` }] });
    expect(errorOf(image.body)).toMatchObject({ code: 'profile_blocked', details: { action: 'upgrade' } });
    expect(commandCount()).toBe(before);
  });

  it('start brings back the replicas the component ran with before it was stopped', async () => {
    const dev = t.manager.clusters.create({ name: 'dev', profile: 'development' }, 'test').id;
    t.manager.commands.issue(dev, 'managedcomponent.apply', { name: 'opa', spec: { ...OPA, replicas: 3 } }, 'test');
    await t.manager.lifecycle.run(
      dev,
      { kind: 'stop', name: 'opa' },
      t.manager.accounts.listUsers().find((u) => u.name === 'olga')!,
    );
    const { components } = t.manager.tables.commands.desiredState(dev)!;
    expect((components.opa as { replicas: number }).replicas).toBe(0);
    // A start is gated by the profile (development: a valid catalog); only installs and upgrades run the preflight.
    const r = await t.manager.lifecycle.run(
      dev,
      { kind: 'start', name: 'opa' },
      t.manager.accounts.listUsers().find((u) => u.name === 'olga')!,
    );
    expect(r.action).toBe('start');
    expect((t.manager.tables.commands.desiredState(dev)!.components.opa as { replicas: number }).replicas).toBe(3);
  });
});

describe('four-eyes approvals under banking-secure', () => {
  const clock = new ManualClock();
  let t: TestManager;
  let olga: Credentials;
  let olgaUser: PublicUser;
  let ada: PublicUser;
  let bob: PublicUser;
  let clusterId: string;

  /** A configuration's approval is for one exact spec: revision n. */
  const revision = (n: number) => ({ spec: { ...OPA, config: { revision: n } } });
  const request = async (action: string, change?: unknown, reason = 'change window CHG-1234'): Promise<string> => {
    const res = await t.call('POST', '/api/v1/approvals', { cluster_id: clusterId, action, service: 'opa', reason, change }, olga);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { id: string }).id;
  };
  const configure = (approvalId: string | undefined, n: number) =>
    t.call(
      'POST',
      `/api/v1/clusters/${clusterId}/components`,
      { name: 'opa', spec: { ...OPA, config: { revision: n } }, approval_id: approvalId },
      olga,
    );
  const enrol = async (user: PublicUser): Promise<void> => {
    const e = await t.manager.accounts.startMfaEnrolment(user.id, 'test');
    t.manager.accounts.confirmMfaEnrolment(
      user.id,
      new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(e.secret) }).generate({ timestamp: clock.now().getTime() }),
      'test',
    );
  };

  beforeAll(async () => {
    t = testManager({ clock });
    olga = await t.login('olga', 'operator');
    olgaUser = t.manager.accounts.listUsers().find((u) => u.name === 'olga')!;
    ada = await t.manager.accounts.addUser('ada', 'admin', 'correct horse battery', 'test');
    bob = await t.manager.accounts.addUser('bob', 'admin', 'correct horse battery', 'test');
    await enrol(ada);
    await enrol(bob);
    clusterId = t.manager.clusters.create({ name: 'bank', profile: 'banking-secure' }, 'test').id;
    t.manager.commands.issue(clusterId, 'managedcomponent.apply', { name: 'opa', spec: OPA }, 'test');
  });
  afterAll(() => t?.close());

  it('refuses a disruptive operation without an approval, and writes nothing', async () => {
    const before = t.manager.commands.list(clusterId).length;
    const res = await t.call('DELETE', `/api/v1/clusters/${clusterId}/components/opa`, undefined, olga);
    expect(res.status).toBe(403);
    expect(errorOf(res.body)).toMatchObject({ code: 'approval_required', details: { action: 'uninstall', service: 'opa' } });
    expect(t.manager.commands.list(clusterId).length).toBe(before);
  });

  it('an approval cannot be approved by its requester', async () => {
    const own = t.manager.approvals.request({ cluster_id: clusterId, action: 'stop', service: 'opa', reason: 'maintenance' }, ada);
    expect(() => t.manager.approvals.approve(own.id, ada)).toThrow(expect.objectContaining({ code: 'approval_self' }));
  });

  it('is used once, by its requester, for exactly that action and service', async () => {
    const id = await request('configuration', revision(1));
    // Not yet approved.
    expect(errorOf((await configure(id, 1)).body).code).toBe('approval_not_approved');
    t.manager.approvals.approve(id, ada, 'ok for tonight');
    // Another user, another action: refused, and the approval stays usable.
    await expect(
      t.manager.lifecycle.run(clusterId, { kind: 'apply', name: 'opa', spec: { ...OPA, config: { revision: 9 } } }, bob, id),
    ).rejects.toMatchObject({ code: 'approval_wrong_user' });
    expect(
      errorOf(
        (await t.call('POST', `/api/v1/clusters/${clusterId}/components/opa/actions`, { action: 'stop', approval_id: id }, olga)).body,
      ).code,
    ).toBe('approval_wrong_target');
    const used = await configure(id, 1);
    expect(used.status).toBe(202);
    const commandId = (used.body as { id: string }).id;
    expect(t.manager.approvals.get(id)).toMatchObject({ state: 'used', used_by_command: commandId });
    // Twice: refused, nothing queued.
    const before = t.manager.commands.list(clusterId).length;
    expect(errorOf((await configure(id, 2)).body).code).toBe('approval_used');
    expect(t.manager.commands.list(clusterId).length).toBe(before);
    const actions = t.manager.store.audit.list({ cluster_id: clusterId }).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['approval.request', 'approval.approve', 'approval.use', 'lifecycle.refused']));
  });

  it('an approval of configuration X does not apply configuration Y (approval_mismatch, audited); X applies', async () => {
    const id = await request('configuration', revision(10));
    const view = t.manager.approvals.get(id);
    expect(view.change).toEqual(revision(10));
    expect(view.digest).toMatch(/^[0-9a-f]{64}$/);
    // What the approver reads: the one value that changes, against the spec in force.
    expect(view.diff).toEqual([{ path: 'spec.config.revision', before: expect.any(String), after: '10' }]);
    t.manager.approvals.approve(id, ada);
    const before = t.manager.commands.list(clusterId).length;
    const other = await configure(id, 11);
    expect(other.status).toBe(409);
    expect(errorOf(other.body)).toMatchObject({ code: 'approval_mismatch', details: { approved_digest: view.digest } });
    expect(t.manager.commands.list(clusterId).length).toBe(before);
    expect(t.manager.approvals.get(id).state).toBe('approved');
    expect(
      t.manager.store.audit
        .list({ cluster_id: clusterId })
        .some((r) => r.action === 'approval.use_refused' && r.details.code === 'approval_mismatch'),
    ).toBe(true);
    expect((await configure(id, 10)).status).toBe(202);
    expect(t.manager.approvals.get(id).state).toBe('used');
  });

  it('a rejected approval cannot be used', async () => {
    const id = await request('configuration', revision(3));
    t.manager.approvals.reject(id, bob, 'not during the freeze');
    expect(errorOf((await configure(id, 3)).body).code).toBe('approval_not_approved');
  });

  it('expires 24 hours after it was approved', async () => {
    const late = await request('configuration', revision(5));
    const inTime = await request('configuration', revision(4));
    t.manager.approvals.approve(late, ada);
    t.manager.approvals.approve(inTime, ada);
    // A day later the browser session has expired too: the requester acts through the core directly.
    const use = (approvalId: string, n: number) =>
      t.manager.lifecycle.run(clusterId, { kind: 'apply', name: 'opa', spec: { ...OPA, config: { revision: n } } }, olgaUser, approvalId);
    clock.advance(24 * 3600_000 - 1000);
    expect((await use(inTime, 4)).action).toBe('configuration');
    clock.advance(1000);
    await expect(use(late, 5)).rejects.toMatchObject({ code: 'approval_expired' });
  });
  it('decisions are made at the console: an admin API token cannot approve', async () => {
    // The browser session of the earlier steps has expired (the clock moved a day): the request is made in the core.
    const { id } = t.manager.approvals.request({ cluster_id: clusterId, action: 'stop', service: 'opa', reason: 'maintenance' }, olgaUser);
    const token = t.manager.accounts.createApiToken('ada', 'test');
    const res = await t.call('POST', `/api/v1/approvals/${id}/approve`, {}, { bearer: token });
    expect(res.status).toBe(403);
    expect(errorOf(res.body).code).toBe('approval_needs_session');
    expect(t.manager.approvals.get(id).state).toBe('pending');
  });

  it('leaving banking-secure is itself an approved configuration, so one admin cannot step down and act alone', async () => {
    await expect(async () => t.manager.lifecycle.changeProfile(clusterId, 'development', ada, t.manager.clusters)).rejects.toMatchObject({
      code: 'approval_required',
    });
    expect(t.manager.tables.clusters.get(clusterId)!.profile).toBe('banking-secure');
    const own = t.manager.approvals.request(
      {
        cluster_id: clusterId,
        action: 'configuration',
        service: 'profile',
        reason: 'end of the banking pilot',
        change: { profile: 'development' },
      },
      ada,
    );
    t.manager.approvals.approve(own.id, bob);
    t.manager.lifecycle.changeProfile(clusterId, 'development', ada, t.manager.clusters, own.id);
    expect(t.manager.tables.clusters.get(clusterId)!.profile).toBe('development');
    expect(t.manager.approvals.get(own.id).state).toBe('used');
  });
});
