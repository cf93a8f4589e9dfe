// A run killed with its hosts still up leaves them running; the next sweep removes every piece of them and
// leaves alone the hosts of a suite that is still alive.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../temp-dir';
import { cgroupMounts } from './cgroups';
import { nspawnRunDir } from './host';
import { bootHosts, describeHosts, sweepStaleHosts, type HostSuite } from './index';
import { linkNames } from './network';
import { isRunning, procStat } from './system';

interface Abandoned {
  name: string;
  leaderPid: number;
  rootDir: string;
  bridge: string;
}

/** Runs the abandoned-suite fixture in its own Node process, waits for its host to be up, then SIGKILLs it. */
async function bootAndKill(): Promise<Abandoned> {
  const out = tempDir();
  try {
    const script = join(out.path, 'abandoned-suite.mjs');
    await build({
      entryPoints: [join(import.meta.dirname, 'fixtures/abandoned-suite.ts')],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        stdout += b.toString();
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`abandoned suite exited ${code} before booting: ${stderr}`)));
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    return JSON.parse(line) as Abandoned;
  } finally {
    out.remove();
  }
}

describeHosts('sweeping stale test hosts', () => {
  let live: HostSuite;
  let stale: Abandoned;
  beforeAll(async () => {
    live = await bootHosts(1);
    stale = await bootAndKill();
  });
  afterAll(() => live?.close());

  it('a killed run leaves its host running, and the sweep removes all of it while keeping the live suite’s', async () => {
    expect(isRunning(stale.leaderPid)).toBe(true);
    expect(procStat(stale.leaderPid)?.comm).toBe('systemd');
    expect(await linkNames()).toEqual(expect.arrayContaining([stale.bridge, `vb-${stale.name}`]));
    expect(existsSync(stale.rootDir)).toBe(true);

    const liveSubnet = Number(live.bridge.slice(3));
    const r = await sweepStaleHosts();
    // Another suite starting meanwhile (its bootHosts sweeps too) may have been first: what counts is that
    // nothing of the killed run is left and the live suite holds its subnet.
    expect(r.live).toContain(liveSubnet);
    expect(r.swept).not.toContain(liveSubnet);

    expect(isRunning(stale.leaderPid)).toBe(false);
    const links = await linkNames();
    expect(links).not.toContain(stale.bridge);
    expect(links).not.toContain(`vb-${stale.name}`);
    expect(existsSync(join(stale.rootDir, '..', '..'))).toBe(false);
    expect(existsSync(nspawnRunDir(stale.name))).toBe(false);
    const cg = cgroupMounts();
    for (const m of [cg.unified, cg.legacy].filter(Boolean)) expect(existsSync(join(m!, 'navin-test-hosts', stale.name))).toBe(false);
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(stale.rootDir);

    const h = live.hosts[0]!;
    expect(isRunning(h.leaderPid)).toBe(true);
    expect((await h.exec(['systemctl', 'is-system-running'])).stdout.trim()).toMatch(/^(running|degraded)$/);
    expect(links).toContain(live.bridge);
  });

  it('a second sweep finds nothing more of the killed run to remove', async () => {
    const r = await sweepStaleHosts();
    expect(r.swept).not.toContain(Number(stale.bridge.slice(3)));
  });
});
