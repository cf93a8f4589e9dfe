// A suite's hosts: claims a subnet, creates its bridge, boots the hosts in parallel and tears all of it down.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { hostsAvailable } from './available';
import { claimSubnet, defaultSuiteDir, machineName, type ClaimNote } from './claims';
import { HostsError } from './errors';
import { bootHost, type TestHost } from './host';
import { createBridge, deleteLink, hostAddress, subnet as subnetOf } from './network';
import { ensureRootfs } from './rootfs';
import { sweepStaleHosts, teardownSubnet } from './sweep';
import { removeTree } from './system';

export interface HostSuite {
  /** 198.18.N.1: where servers meant for the hosts (gateway, registry) bind. */
  bridgeAddress: string;
  /** The /24 of the suite, e.g. 198.18.7.0/24. */
  cidr: string;
  /** The bridge's interface name on the outside (nvb<N>). */
  bridge: string;
  hosts: TestHost[];
  /** Every host stopped, the bridge and the files removed. */
  close(): Promise<void>;
}

export interface BootOptions {
  /** Packages beyond HOST_PACKAGES (a root file system for that list is built and cached on first use). */
  packages?: string[];
}

export async function bootHosts(count: number, opts: BootOptions = {}): Promise<HostSuite> {
  const avail = hostsAvailable();
  if (!avail.ok) throw new HostsError('hosts_unavailable', avail.reason);
  if (!Number.isInteger(count) || count < 1 || count > 99) throw new RangeError(`host count ${count} outside 1..99`);
  const rootfs = await ensureRootfs({ packages: opts.packages });
  await sweepStaleHosts();

  const claim = await claimSubnet();
  if (!claim) throw new HostsError('no_free_subnet', 'every /24 of 198.18.0.0/15 is held by a live suite');
  const net = subnetOf(claim.subnet);
  const dir = defaultSuiteDir(claim.subnet);
  const note: ClaimNote = { pid: process.pid, dir, started_at: new Date().toISOString() };
  claim.lock.note(JSON.stringify(note));

  const hosts: TestHost[] = [];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      try {
        const results = await Promise.allSettled(hosts.map((h) => h.stop()));
        await deleteLink(net.bridge);
        // Anything a failed stop left behind goes the way a crashed suite's would.
        if (results.some((r) => r.status === 'rejected')) await teardownSubnet(claim.subnet);
        await removeTree(dir);
        claim.lock.note('');
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      } finally {
        await claim.lock.release();
      }
    })());

  try {
    // A crashed suite may have left this subnet dirty before its lock was freed.
    await teardownSubnet(claim.subnet);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await createBridge(net);
    const booting = Array.from({ length: count }, (_, i) =>
      bootHost({
        name: machineName(claim.subnet, i),
        address: hostAddress(net, i),
        bridge: net.bridge,
        lowerDir: rootfs.root,
        dir: join(dir, machineName(claim.subnet, i)),
      }),
    );
    const settled = await Promise.allSettled(booting);
    for (const s of settled) if (s.status === 'fulfilled') hosts.push(s.value);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    // Each host knows the others by name.
    const lines = hosts.map((h) => `${h.address} ${h.name}`).join('\n') + '\n';
    await Promise.all(hosts.map((h) => h.exec(['sh', '-c', 'cat >> /etc/hosts'], { input: lines })));
  } catch (e) {
    await close().catch(() => {});
    throw e;
  }
  return { bridgeAddress: net.bridgeAddress, cidr: `${net.prefix}.0/24`, bridge: net.bridge, hosts, close };
}
