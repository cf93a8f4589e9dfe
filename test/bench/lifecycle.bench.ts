// What the lifecycle gate adds to an operation: an upgrade signed and queued directly (Commands.issue, the bare
// path) against the same upgrade through the gate — the profile's rules and the preflight, each run for real
// (TLS handshakes with the console and the gateway, the agent's inventory, the CA, the DNS and mirror checks
// warning without a lookup as neither an FQDN nor a mirror is set) — under the development and the standard profile.
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { testManager, type TestManager } from '../support/manager';
import { startListeners, type RunningListeners } from '../support/listeners';
import type { PublicUser } from '../../main/core/accounts/accounts';

let t: TestManager;
let listeners: RunningListeners;
let olga: PublicUser;
const clusters: Record<'bare' | 'development' | 'standard', string> = { bare: '', development: '', standard: '' };
const INVENTORY = {
  kubernetes_version: 'v1.30.4',
  nodes: ['cp-1', 'worker-1', 'worker-2'].map((name) => ({
    name,
    ready: true,
    operating_system: 'linux',
    architecture: 'amd64',
    os_image: 'Debian GNU/Linux 12 (bookworm)',
    allocatable: { cpu: '8', memory: '32Gi', pods: '110' },
  })),
};
let n = 0;
const spec = () => ({ component: 'opa', version: `1.0.${n++ % 2}`, replicas: 2 });

beforeAll(async () => {
  t = testManager();
  listeners = await startListeners(t);
  olga = await t.manager.accounts.addUser('olga', 'operator', 'correct horse battery', 'bench');
  // An admin without TOTP: standard is blocked on its MFA rule once every other rule has run.
  await t.manager.accounts.addUser('ada', 'admin', 'correct horse battery', 'bench');
  for (const profile of ['bare', 'development', 'standard'] as const) {
    const id = t.manager.clusters.create({ name: `bench-${profile}`, profile: profile === 'bare' ? 'development' : profile }, 'bench').id;
    // The cluster is judged on the inventory its agent reported (no kubeconfig registered).
    t.manager.store.tx(() => t.manager.tables.clusterAccess.insertSnapshot(id, t.manager.clock.now().toISOString(), 'agent', INVENTORY));
    t.manager.commands.issue(id, 'managedcomponent.apply', { name: 'opa', spec: spec() }, 'bench');
    clusters[profile] = id;
  }
});
afterAll(async () => {
  await listeners?.close();
  t?.close();
});

describe('an upgrade of one component', () => {
  bench('signed and queued directly (Commands.issue, baseline)', () => {
    t.manager.commands.issue(clusters.bare, 'managedcomponent.apply', { name: 'opa', spec: spec() }, 'bench');
  });
  bench('through the gate, development profile (catalog rule + preflight)', async () => {
    await t.manager.lifecycle.run(clusters.development, { kind: 'apply', name: 'opa', spec: spec() }, olga);
  });
  // Refused before the preflight: the cost of evaluating standard's five rules, with their handshakes.
  bench('refused by the gate, standard profile (five rules, three TLS handshakes)', async () => {
    await t.manager.lifecycle.run(clusters.standard, { kind: 'apply', name: 'opa', spec: spec() }, olga).catch((e: { code?: string }) => {
      if (e.code !== 'profile_blocked') throw e;
    });
  });
});
