// Three real Debian 12 hosts: systemd as PID 1, a host name and a network namespace each, one bridge between
// them and the test, units that systemd runs, offline package installs, and nothing left after close().
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../temp-dir';
import { cgroupMounts } from './cgroups';
import { nspawnRunDir } from './host';
import { bootHosts, describeHosts, ensureRootfs, type HostSuite, type TestHost } from './index';
import { linkNames } from './network';
import { isRunning, procStat } from './system';

describeHosts('test hosts', () => {
  let suite: HostSuite;
  let hosts: TestHost[];
  beforeAll(async () => {
    const t0 = Date.now();
    suite = await bootHosts(3);
    hosts = suite.hosts;
    console.log(`test hosts: 3 hosts booted to running in ${Date.now() - t0} ms`);
  });
  afterAll(() => suite?.close());

  it('boots three hosts, each with systemd as PID 1, its own host name and its own network namespace', async () => {
    expect(hosts).toHaveLength(3);
    for (const h of hosts) {
      expect(procStat(h.leaderPid)?.comm).toBe('systemd');
      expect((await h.exec(['cat', '/proc/1/comm'])).stdout.trim()).toBe('systemd');
      expect((await h.exec(['hostname'])).stdout.trim()).toBe(h.name);
      expect(['running', 'degraded']).toContain((await h.exec(['systemctl', 'is-system-running'])).stdout.trim());
      const addr = await h.exec(['ip', '-o', '-4', 'addr', 'show', 'dev', 'host0']);
      expect(addr.stdout).toContain(`inet ${h.address}/24`);
      // No route leaves the suite's /24.
      expect((await h.exec(['ip', '-4', 'route', 'show'])).stdout.trim()).toBe(
        `${suite.cidr} dev host0 proto kernel scope link src ${h.address}`,
      );
    }
    expect(new Set(hosts.map((h) => h.name)).size).toBe(3);
    expect(new Set(hosts.map((h) => h.address)).size).toBe(3);
    const netns = hosts.map((h) => readlinkSync(`/proc/${h.leaderPid}/ns/net`));
    expect(new Set([...netns, readlinkSync('/proc/self/ns/net')]).size).toBe(4);
    expect(hosts.every((h) => h.address.startsWith('198.18.') || h.address.startsWith('198.19.'))).toBe(true);
  });

  it('runs commands inside with stdin, environment and exit code, and kills one that outlives its timeout', async () => {
    const h = hosts[0]!;
    const r = await h.exec(['sh', '-c', 'cat; echo "$FOO"; exit 3'], { input: 'from stdin\n', env: { FOO: 'bar' } });
    expect(r).toEqual({ code: 3, stdout: 'from stdin\nbar\n', stderr: '' });
    // A clean environment: nothing of the test runner's leaks in.
    expect((await h.exec(['sh', '-c', 'echo "${VITEST:-none}"'])).stdout.trim()).toBe('none');
    await expect(h.exec(['sleep', '31'], { timeoutMs: 300 })).rejects.toMatchObject({ code: 'host_exec_timeout' });
    await expect.poll(async () => (await h.exec(['sh', '-c', 'pgrep -x sleep -a | grep -c " 31$" || true'])).stdout.trim()).toBe('0');
  });

  it('copies files and trees in with their modes, resolving links inside the host, never on the outside', async () => {
    const h = hosts[1]!;
    const src = tempDir();
    try {
      mkdirSync(join(src.path, 'tree/sub'), { recursive: true });
      writeFileSync(join(src.path, 'tree/sub/run.sh'), '#!/bin/sh\necho ran\n', { mode: 0o750 });
      writeFileSync(join(src.path, 'tree/data'), 'data\n', { mode: 0o600 });
      await h.copyIn(join(src.path, 'tree'), '/opt/navin-tree');
      expect((await h.exec(['/opt/navin-tree/sub/run.sh'])).stdout).toBe('ran\n');
      expect((await h.exec(['stat', '-c', '%a', '/opt/navin-tree/sub/run.sh', '/opt/navin-tree/data'])).stdout).toBe('750\n600\n');

      await h.exec(['ln', '-s', '/etc', '/opt/etc-link']);
      writeFileSync(join(src.path, 'marker'), 'inside\n');
      await h.copyIn(join(src.path, 'marker'), '/opt/etc-link/navin-marker');
      expect((await h.exec(['cat', '/etc/navin-marker'])).stdout).toBe('inside\n');
      expect(existsSync('/etc/navin-marker')).toBe(false);
    } finally {
      src.remove();
    }
  });

  it('runs a unit written inside: systemctl is-active says active and its process runs in the host', async () => {
    const h = hosts[0]!;
    const unit = tempDir();
    try {
      const file = join(unit.path, 'navin-probe.service');
      writeFileSync(file, '[Service]\nExecStart=/bin/sh -c "echo $$$$ > /run/navin-probe.pid; exec sleep infinity"\n');
      await h.copyIn(file, '/etc/systemd/system/navin-probe.service');
    } finally {
      unit.remove();
    }
    expect((await h.exec(['systemctl', 'daemon-reload'])).code).toBe(0);
    expect((await h.exec(['systemctl', 'start', 'navin-probe.service'])).code).toBe(0);
    const active = await h.exec(['systemctl', 'is-active', 'navin-probe.service']);
    expect(active.stdout.trim()).toBe('active');
    expect(active.code).toBe(0);
    const pid = (await h.exec(['cat', '/run/navin-probe.pid'])).stdout.trim();
    expect((await h.exec(['ps', '-o', 'comm=', '-p', pid])).stdout.trim()).toBe('sleep');
    expect((await h.exec(['systemctl', 'show', '-p', 'ControlGroup', '--value', 'navin-probe.service'])).stdout.trim()).toBe(
      '/system.slice/navin-probe.service',
    );
    // The unit is this host's alone.
    expect((await hosts[1]!.exec(['systemctl', 'is-active', 'navin-probe.service'])).stdout.trim()).toBe('inactive');
  });

  it('hosts reach each other over TCP on the bridge (a socket unit on each answers with its host name)', async () => {
    const socket = '[Socket]\nListenStream=7000\nAccept=yes\n[Install]\nWantedBy=sockets.target\n';
    const service = '[Service]\nExecStart=/bin/hostname\nStandardInput=socket\nStandardOutput=socket\n';
    await Promise.all(
      hosts.map(async (h) => {
        const script = 'cat > /etc/systemd/system/navin-echo.socket; printf "%s" "$1" > /etc/systemd/system/navin-echo@.service';
        await h.exec(['sh', '-c', script, 'sh', service], { input: socket });
        await h.exec(['systemctl', 'daemon-reload']);
        expect((await h.exec(['systemctl', 'start', 'navin-echo.socket'])).code).toBe(0);
      }),
    );
    for (const from of hosts)
      for (const to of hosts) {
        if (from === to) continue;
        const r = await from.exec(['bash', '-c', `exec 3<>/dev/tcp/${to.address}/7000 && cat <&3`], { timeoutMs: 10_000 });
        expect({ from: from.name, to: to.name, code: r.code, answer: r.stdout.trim() }).toEqual({
          from: from.name,
          to: to.name,
          code: 0,
          answer: to.name,
        });
      }
    // Each resolves the others by name too.
    const byName = await hosts[0]!.exec(['bash', '-c', `exec 3<>/dev/tcp/${hosts[2]!.name}/7000 && cat <&3`]);
    expect(byName.stdout.trim()).toBe(hosts[2]!.name);
  });

  it('hosts reach a TCP server the test binds on the bridge address', async () => {
    const seen: { from: string; text: string }[] = [];
    const server = createServer((s: Socket) => {
      let text = '';
      s.on('data', (b) => (text += b.toString()));
      s.on('end', () => {
        seen.push({ from: s.remoteAddress ?? '', text: text.trim() });
        s.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, suite.bridgeAddress, r));
    const port = (server.address() as AddressInfo).port;
    try {
      for (const h of hosts) {
        const r = await h.exec(['bash', '-c', `exec 3<>/dev/tcp/${suite.bridgeAddress}/${port} && hostname >&3 && exec 3>&-`], {
          timeoutMs: 10_000,
        });
        expect(r.code).toBe(0);
      }
      await expect.poll(() => seen.length).toBe(3);
      expect(seen.sort((a, b) => a.text.localeCompare(b.text))).toEqual(hosts.map((h) => ({ from: h.address, text: h.name })));
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('runs the Node.js runtime of this machine copied in, with only the libraries of the root file system', async () => {
    const h = hosts[1]!;
    await h.copyIn(process.execPath, '/opt/navin-test/bin/node');
    const r = await h.exec(['/opt/navin-test/bin/node', '-e', 'console.log(process.version, require("os").hostname())']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`${process.version} ${h.name}`);
  });

  it('installs a local .deb with apt-get and no network, its dependencies already in the root file system', async () => {
    const work = tempDir();
    try {
      const pkg = join(work.path, 'pkg');
      mkdirSync(join(pkg, 'DEBIAN'), { recursive: true });
      mkdirSync(join(pkg, 'usr/share/navin-probe'), { recursive: true });
      writeFileSync(join(pkg, 'usr/share/navin-probe/hello'), 'hello from a package\n');
      writeFileSync(
        join(pkg, 'DEBIAN/control'),
        'Package: navin-probe\nVersion: 1.0.0\nArchitecture: amd64\nMaintainer: Navin <dev@navin.invalid>\n' +
          'Depends: libc6, libstdc++6, libgcc-s1, systemd, adduser, ca-certificates\nDescription: test host probe\n',
      );
      execFileSync('dpkg-deb', ['--build', '--root-owner-group', pkg, join(work.path, 'navin-probe_1.0.0_amd64.deb')], { stdio: 'pipe' });
      const h = hosts[2]!;
      await h.copyIn(join(work.path, 'navin-probe_1.0.0_amd64.deb'), '/root/navin-probe_1.0.0_amd64.deb');
      const r = await h.exec(['apt-get', 'install', '-y', '/root/navin-probe_1.0.0_amd64.deb'], {
        env: { DEBIAN_FRONTEND: 'noninteractive' },
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect((await h.exec(['dpkg-query', '-W', '-f', '${Status}', 'navin-probe'])).stdout).toBe('install ok installed');
      expect((await h.exec(['cat', '/usr/share/navin-probe/hello'])).stdout).toBe('hello from a package\n');
    } finally {
      work.remove();
    }
  });

  it('keeps what a host writes in that host: the cached root file system and the other hosts do not see it', async () => {
    const rootfs = await ensureRootfs();
    await hosts[0]!.exec(['sh', '-c', 'echo mine > /etc/navin-written']);
    expect(readFileSync(join(hosts[0]!.rootDir, 'etc/navin-written'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(rootfs.root, 'etc/navin-written'))).toBe(false);
    expect((await hosts[1]!.exec(['test', '-e', '/etc/navin-written'])).code).toBe(1);
  });

  it('leaves nothing after close: no process, no interface, no directory, no control group', async () => {
    const before = hosts.map((h) => ({ name: h.name, pid: h.leaderPid, rootDir: h.rootDir }));
    const present = await linkNames();
    expect(present).toContain(suite.bridge);
    expect(present.filter((l) => before.some((h) => l === `vb-${h.name}`))).toHaveLength(3);
    await suite.close();
    const links = await linkNames();
    const cg = cgroupMounts();
    for (const h of before) {
      expect(isRunning(h.pid), `leader of ${h.name}`).toBe(false);
      expect(links).not.toContain(`vb-${h.name}`);
      expect(existsSync(h.rootDir)).toBe(false);
      expect(existsSync(nspawnRunDir(h.name))).toBe(false);
      for (const m of [cg.unified, cg.legacy].filter(Boolean)) expect(existsSync(join(m!, 'navin-test-hosts', h.name))).toBe(false);
    }
    expect(links).not.toContain(suite.bridge);
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(before[0]!.rootDir);
    // No process on the machine still has its root in this suite's directory (other suites may be running).
    const suiteDir = join(before[0]!.rootDir, '..', '..');
    const inside = execFileSync('sh', [
      '-c',
      `for r in /proc/[0-9]*/root; do readlink "$r"; done 2>/dev/null | grep -c -F "${suiteDir}/" || true`,
    ]);
    expect(inside.toString().trim()).toBe('0');
  });
});
