// The Debian 12 root file system every test host boots from: built once by mmdebstrap, cached outside the
// checkout under a key derived from its package list, and never written again once built (hosts mount it as
// the read-only lower layer of their own overlay).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HOST_SUITE, hostDebianSources } from './apt-sources';
import { HostsError } from './errors';
import { acquireLock } from './lock';
import { removeTree, run } from './system';

/**
 * What every test host has installed. Besides systemd and the tools the support itself runs inside, the
 * libraries a copied Node.js runtime links (`ldd node`: libstdc++6, libgcc-s1, libc6), so that installing
 * a .deb that bundles Node needs no network. Add here what every host needs; a suite needing more passes
 * `packages` to bootHosts (a separate cached root file system is then built for that list).
 */
export const HOST_PACKAGES: readonly string[] = [
  'systemd',
  'systemd-sysv',
  'dbus',
  'iproute2',
  'ca-certificates',
  'passwd',
  'adduser',
  'procps',
  'libstdc++6',
  'libgcc-s1',
];

// Bumped whenever the recipe below changes in a way the package list does not show.
const RECIPE = 1;

const HOOKS = [
  // The machine name given by systemd-nspawn is then the host name.
  'rm -f "$1/etc/hostname"',
  // Hosts have no resolver and no route out: names the suite needs go to /etc/hosts.
  'rm -f "$1/etc/resolv.conf" && echo "# test host: no DNS" > "$1/etc/resolv.conf"',
  // Nothing that would try the network on its own, nor a getty on a console nobody reads.
  'systemctl --root="$1" mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer console-getty.service',
  // A stuck unit must not hold a suite's teardown for the default 90 s.
  'mkdir -p "$1/etc/systemd/system.conf.d" && printf "[Manager]\\nDefaultTimeoutStopSec=10s\\n" > "$1/etc/systemd/system.conf.d/navin-test-host.conf"',
];

export function packageList(extra: readonly string[] = []): string[] {
  return [...new Set([...HOST_PACKAGES, ...extra])].sort();
}

export function rootfsKey(packages: readonly string[]): string {
  const recipe = JSON.stringify({ recipe: RECIPE, suite: HOST_SUITE, variant: 'minbase', packages: packageList(packages), hooks: HOOKS });
  return createHash('sha256').update(recipe).digest('hex').slice(0, 16);
}

export function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'navin-test-hosts');
}

export interface RootfsOptions {
  /** Packages beyond HOST_PACKAGES. */
  packages?: readonly string[];
  /** Progress lines of a build (a cold build takes about a minute). */
  onProgress?: (line: string) => void;
}

export interface Rootfs {
  key: string;
  /** The root directory (read-only by convention: hosts overlay it). */
  root: string;
  built: boolean;
}

/** Returns the cached root file system for the package list, building it first if needed. */
export async function ensureRootfs(opts: RootfsOptions = {}): Promise<Rootfs> {
  const packages = packageList(opts.packages);
  const key = rootfsKey(packages);
  const cache = cacheRoot();
  const final = join(cache, `rootfs-${key}`);
  if (existsSync(join(final, 'root'))) return { key, root: join(final, 'root'), built: false };

  mkdirSync(cache, { recursive: true });
  opts.onProgress?.(`test hosts: waiting for the build lock of root file system ${key}`);
  const lock = await acquireLock(join(cache, `rootfs-${key}.lock`), 20 * 60_000);
  try {
    // Another worker may have finished the build while we waited for the lock.
    if (existsSync(join(final, 'root'))) return { key, root: join(final, 'root'), built: false };
    for (const n of readdirSync(cache)) if (n.startsWith(`.tmp-rootfs-${key}-`)) await removeTree(join(cache, n));

    const tmp = join(cache, `.tmp-rootfs-${key}-${process.pid}`);
    mkdirSync(tmp);
    const sources = hostDebianSources();
    const started = Date.now();
    opts.onProgress?.(`test hosts: building the Debian 12 root file system ${key} with mmdebstrap (about a minute, once)`);
    const args = [
      '--mount',
      'mmdebstrap',
      '--mode=root',
      '--variant=minbase',
      `--include=${packages.join(',')}`,
      ...HOOKS.map((h) => `--customize-hook=${h}`),
      HOST_SUITE,
      join(tmp, 'root'),
      ...sources,
    ];
    // A private mount namespace: whatever mmdebstrap mounts inside the tree vanishes with it, even if it is
    // killed, so a half-built tree never keeps the machine's /dev or /proc mounted under the cache.
    const log: string[] = [];
    const r = await run('unshare', args, {
      timeoutMs: 20 * 60_000,
      allowFail: true,
      onStderr: (chunk) => {
        for (const line of chunk.split('\n').filter((l) => l.startsWith('I: ') || l.startsWith('E: '))) {
          log.push(line);
          opts.onProgress?.(`test hosts: ${line}`);
        }
      },
    });
    if (r.code !== 0) {
      await removeTree(tmp);
      throw new HostsError(
        'rootfs_build_failed',
        `mmdebstrap failed (exit ${r.code}):\n${r.stderr.trim().split('\n').slice(-20).join('\n')}`,
      );
    }
    const dpkg = await run('dpkg-query', [`--admindir=${join(tmp, 'root/var/lib/dpkg')}`, '-W', '-f', '${Package} ${Version}\\n']);
    const manifest = {
      key,
      suite: HOST_SUITE,
      variant: 'minbase',
      packages,
      sources,
      built_at: new Date().toISOString(),
      installed: dpkg.stdout.trim().split('\n'),
    };
    writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    renameSync(tmp, final);
    opts.onProgress?.(`test hosts: root file system ${key} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { key, root: join(final, 'root'), built: true };
  } finally {
    await lock?.release();
  }
}
