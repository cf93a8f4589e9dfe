// The node agent's own liveness checks: each watched unit checked at its interval, one run at a time, a report
// asked for only when an outcome changes, a watch replaced by a newer plan checked at once, an unwatched unit
// dropped from what is reported.
import { afterEach, describe, expect, it } from 'vitest';
import { LivenessWatcher } from '../../../agent/node/liveness-watcher';
import type { LivenessWatch } from '../../../main/wire/node-agent';
import type { CheckOutcome } from '../../../main/wire/service-checks';
import { until } from '../../support/agent-harness';

const outcome = (status: 'pass' | 'fail'): CheckOutcome => ({
  kind: 'tcp',
  status,
  started_at: new Date().toISOString(),
  duration_ms: 1,
  method: 'connect',
  evidence: {},
  ...(status === 'fail' ? { error: { code: 'unreachable' as const, message: 'refused' } } : {}),
});

describe('liveness watcher', () => {
  let watcher: LivenessWatcher | undefined;
  afterEach(() => watcher?.stop());

  it('checks each unit at its interval and asks for a report only when an outcome changes', async () => {
    const watches: Record<string, LivenessWatch> = {
      'navin-a.service': { check: { kind: 'tcp', params: { port: 1 } }, interval_s: 0.05, command_id: 'c1' },
    };
    let status: 'pass' | 'fail' = 'pass';
    let runs = 0;
    let changes = 0;
    watcher = new LivenessWatcher({
      watches: () => watches,
      runCheck: async () => {
        runs++;
        return outcome(status);
      },
      onChange: () => changes++,
      tickMs: 10,
    });
    watcher.start();
    await until('several runs', () => (runs >= 4 ? true : undefined), 5_000, 10);
    expect(changes).toBe(1);
    expect(watcher.outcomes()['navin-a.service']!.status).toBe('pass');
    status = 'fail';
    await until('the failure reported', () => (changes === 2 ? true : undefined), 5_000, 10);
    expect(watcher.outcomes()['navin-a.service']!.error!.code).toBe('unreachable');
    delete watches['navin-a.service'];
    expect(watcher.outcomes()).toEqual({});
  });

  it('runs one check at a time per unit, and a watch from a newer plan at once', async () => {
    const watches: Record<string, LivenessWatch> = {
      'navin-b.service': { check: { kind: 'tcp', params: { port: 1 } }, interval_s: 3600, command_id: 'old' },
    };
    let inFlight = 0;
    let most = 0;
    const seen: string[] = [];
    watcher = new LivenessWatcher({
      watches: () => watches,
      runCheck: async (c) => {
        inFlight++;
        most = Math.max(most, inFlight);
        seen.push(String(c.params.port));
        await new Promise((r) => setTimeout(r, 50));
        inFlight--;
        return outcome('pass');
      },
      onChange: () => undefined,
      tickMs: 5,
    });
    watcher.start();
    await until('first run', () => (seen.length === 1 && inFlight === 0 ? true : undefined), 5_000, 5);
    watches['navin-b.service'] = { check: { kind: 'tcp', params: { port: 2 } }, interval_s: 3600, command_id: 'new' };
    await until('the new watch run', () => (seen.length === 2 ? true : undefined), 5_000, 5);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual(['1', '2']);
    expect(most).toBe(1);
  });

  it('forgets the outcome of a unit no longer watched', async () => {
    const watches: Record<string, LivenessWatch> = {
      'navin-a.service': { check: { kind: 'tcp', params: { port: 1 } }, interval_s: 60, command_id: 'c1' },
      'navin-b.service': { check: { kind: 'tcp', params: { port: 2 } }, interval_s: 60, command_id: 'c1' },
    };
    watcher = new LivenessWatcher({ watches: () => watches, runCheck: async () => outcome('pass'), onChange: () => undefined, tickMs: 10 });
    watcher.start();
    await until('both checked', () => (watcher!.kept === 2 ? true : undefined), 5_000, 10);
    delete watches['navin-b.service'];
    await until('b forgotten', () => (watcher!.kept === 1 ? true : undefined), 5_000, 10);
    expect(Object.keys(watcher.outcomes())).toEqual(['navin-a.service']);
  });
});
