// The suite's network: one bridge per suite holding a /24 out of 198.18.0.0/15 (a range reserved for
// benchmarks, reached by nothing else), the host side of every host's veth pair attached to it, and no
// route anywhere else. IPv6 stays off so no link-local chatter starts on its own.
import { writeFile } from 'node:fs/promises';
import { run } from './system';

/** 198.18.0.0/15 holds 512 /24 subnets, numbered 0..511. */
export const SUBNETS = 512;

export interface Subnet {
  index: number;
  bridge: string;
  /** First three octets, e.g. 198.18.7 */
  prefix: string;
  bridgeAddress: string;
}

export function subnet(index: number): Subnet {
  if (!Number.isInteger(index) || index < 0 || index >= SUBNETS) throw new RangeError(`subnet index ${index} outside 0..${SUBNETS - 1}`);
  const prefix = `198.${18 + (index >> 8)}.${index & 255}`;
  return { index, bridge: `nvb${index}`, prefix, bridgeAddress: `${prefix}.1` };
}

export const hostAddress = (s: Subnet, i: number) => `${s.prefix}.${11 + i}`;

async function disableIpv6(iface: string): Promise<void> {
  // Absent when the kernel has no IPv6: nothing to turn off then.
  await writeFile(`/proc/sys/net/ipv6/conf/${iface}/disable_ipv6`, '1').catch(() => {});
}

export async function linkNames(): Promise<string[]> {
  const r = await run('ip', ['-o', 'link', 'show']);
  return r.stdout
    .split('\n')
    .map((l) => /^\d+:\s+([^:@\s]+)/.exec(l)?.[1])
    .filter((n): n is string => !!n);
}

export async function deleteLink(name: string): Promise<void> {
  await run('ip', ['link', 'delete', name], { allowFail: true });
}

export async function createBridge(s: Subnet): Promise<void> {
  // The caller holds this subnet's claim, so a bridge already there is a leftover: start it afresh.
  await deleteLink(s.bridge);
  await run('ip', ['link', 'add', 'name', s.bridge, 'type', 'bridge']);
  await disableIpv6(s.bridge);
  await run('ip', ['addr', 'add', `${s.bridgeAddress}/24`, 'dev', s.bridge]);
  await run('ip', ['link', 'set', s.bridge, 'up']);
}

/** The veth end that systemd-nspawn --network-bridge leaves on the outside for a machine. */
export const outsideVeth = (machine: string) => `vb-${machine}`;

/** Addresses the inside end (host0) from the host's network namespace, with the outside's own tools. */
export async function configureInside(leaderPid: number, address: string, machine: string): Promise<void> {
  await disableIpv6(outsideVeth(machine));
  const script = [
    'set -e',
    'f=/proc/sys/net/ipv6/conf/host0/disable_ipv6; [ ! -e "$f" ] || echo 1 > "$f"',
    `ip addr add ${address}/24 dev host0`,
    'ip link set host0 up',
    'ip link set lo up',
  ].join('\n');
  await run('nsenter', [`--target=${leaderPid}`, '--net', '--', 'sh', '-c', script], { timeoutMs: 10_000 });
}
