// The preflight's host checks for a cluster of kind hosts, judged on the facts each node agent last reported:
// OS, architecture, memory, disks and systemd block an install; the age of the facts, the agent's connection
// and version, and the CPU count only warn. Their words are in host-texts.ts.
import type { Tables } from '../domain-tables';
import type { Clock } from '../clock';
import { check } from '../checks/check';
import type { CheckResult, CheckStatus } from '../../contract/check-types';
import { bilingual, type Bilingual } from '../../contract/bilingual';
import type { HostFacts } from '../../wire/node-agent';
import { hostView } from '../clusters/host-status';
import { HOST_TEXT as TEXT } from './host-texts';

export const SUPPORTED_HOST_OS: Record<string, number> = { debian: 12, ubuntu: 22.04 };
export const SUPPORTED_HOST_ARCH = ['amd64', 'arm64'];
export const MIN_HOST_MEMORY_BYTES = 512 * 1024 * 1024;
export const MIN_FREE_DISK_BYTES = 1024 * 1024 * 1024;
/** Where services keep their data: the file system holding it needs the free space. */
export const DATA_PATH = '/var/lib/navin';
export const MIN_SYSTEMD_VERSION = 247;
export const FACTS_FRESH_MS = 10 * 60_000;

/** A host judged on one requirement: whether it meets it, what was seen, and that in words. */
type Judge = (f: HostFacts) => { ok: boolean; warn?: boolean; seen: unknown; said: Bilingual };

const GiB = (n: number): string => `${(n / 1024 ** 3).toFixed(1)} GiB`;

/** The file system a path lives on: the disk with the longest mount point that contains it. */
export function diskFor(facts: HostFacts, path: string): HostFacts['disks'][number] | undefined {
  return facts.disks
    .filter((d) => d.mount === '/' || path === d.mount || path.startsWith(`${d.mount}/`))
    .sort((a, b) => b.mount.length - a.mount.length)[0];
}

const JUDGES: Record<'os' | 'arch' | 'memory' | 'disks' | 'systemd', Judge> = {
  os: (f) => {
    const id = f.os.distro.toLowerCase().split(/\s+/)[0] ?? '';
    const min = SUPPORTED_HOST_OS[id];
    const ok = f.os.platform === 'linux' && min !== undefined && Number.parseFloat(f.os.release) >= min;
    const said = `${f.os.distro} ${f.os.release}`;
    return { ok, seen: { platform: f.os.platform, distro: f.os.distro, release: f.os.release }, said: bilingual(said, said) };
  },
  arch: (f) => ({
    ok: SUPPORTED_HOST_ARCH.includes(f.architecture),
    seen: f.architecture,
    said: bilingual(f.architecture, f.architecture),
  }),
  memory: (f) => ({
    ok: f.memory.total_bytes >= MIN_HOST_MEMORY_BYTES,
    seen: f.memory,
    said: TEXT.memorySeen(GiB(f.memory.total_bytes)),
  }),
  disks: (f) => {
    const d = diskFor(f, DATA_PATH);
    return {
      ok: !!d && d.available_bytes >= MIN_FREE_DISK_BYTES,
      seen: d ?? null,
      said: d ? TEXT.diskFree(GiB(d.available_bytes), d.mount) : TEXT.noDisk,
    };
  },
  systemd: (f) => {
    const v = Number.parseInt(f.systemd.version ?? '', 10);
    const state = f.systemd.system_state;
    const ok = Number.isFinite(v) && v >= MIN_SYSTEMD_VERSION && (state === 'running' || state === 'degraded');
    return {
      ok,
      warn: ok && state === 'degraded',
      seen: f.systemd,
      said: f.systemd.version ? TEXT.systemdSeen(f.systemd.version, state) : TEXT.noSystemd,
    };
  },
};

const METHOD = 'read the facts each host’s node agent last reported (systeminformation and systemctl on the host)';

/** "host (what was seen), …" in each language. */
const named = (rs: { host: string; said: Bilingual }[]): Bilingual =>
  bilingual(rs.map((r) => `${r.host} (${r.said.en})`).join(', '), rs.map((r) => `${r.host} (${r.said.fr})`).join(', '));

function judgeAll(
  id: string,
  title: Bilingual,
  hosts: { name: string; facts: HostFacts | null }[],
  judge: Judge,
  requirement: Bilingual,
  extra: Record<string, unknown>,
  at: string,
): CheckResult {
  const results = hosts.map((h) =>
    h.facts ? { host: h.name, ...judge(h.facts) } : { host: h.name, ok: false, seen: null, said: TEXT.noFacts },
  );
  const evidence = { method: METHOD, ...extra, hosts: results.map((r) => ({ host: r.host, ok: r.ok, observed: r.seen })) };
  if (hosts.length === 0) return check(id, title, 'fail', evidence, TEXT.noHostYet, at);
  const bad = results.filter((r) => !r.ok);
  if (bad.length) {
    const list = named(bad);
    const reason = bilingual(TEXT.failing(requirement.en, list.en).en, TEXT.failing(requirement.fr, list.fr).fr);
    return check(id, title, 'fail', evidence, reason, at);
  }
  const warned = results.filter((r) => 'warn' in r && r.warn);
  if (warned.length) return check(id, title, 'warn', evidence, named(warned), at);
  return check(id, title, 'pass', evidence, null, at);
}

const majorMinor = (v: string): string => v.split('.').slice(0, 2).join('.');

export function hostChecks(tables: Tables<'hosts'>, clock: Clock, clusterId: string, managerVersion: string, at: string): CheckResult[] {
  const views = tables.hosts.list(clusterId).map((h) => hostView(tables, clock, h));
  const hosts = views.map((v) => ({ name: v.name, facts: (v.facts as HostFacts | null) ?? null }));
  const now = clock.now().getTime();
  const warnIf = (
    id: string,
    title: Bilingual,
    bad: string[],
    evidence: Record<string, unknown>,
    reason: (list: string) => Bilingual,
  ): CheckResult => {
    const status: CheckStatus = bad.length || views.length === 0 ? 'warn' : 'pass';
    const list = views.length === 0 ? TEXT.noHost : bilingual(bad.join(', '), bad.join(', '));
    return check(id, title, status, { method: METHOD, ...evidence }, bilingual(reason(list.en).en, reason(list.fr).fr), at);
  };
  return [
    judgeAll('hosts.os', TEXT.osTitle, hosts, JUDGES.os, TEXT.notSupported, { supported: SUPPORTED_HOST_OS }, at),
    judgeAll('hosts.architecture', TEXT.archTitle, hosts, JUDGES.arch, TEXT.archNotSupported, { supported: SUPPORTED_HOST_ARCH }, at),
    judgeAll(
      'hosts.memory',
      TEXT.memoryTitle,
      hosts,
      JUDGES.memory,
      TEXT.memoryBelow(GiB(MIN_HOST_MEMORY_BYTES)),
      { minimum_bytes: MIN_HOST_MEMORY_BYTES },
      at,
    ),
    judgeAll(
      'hosts.disks',
      TEXT.disksTitle,
      hosts,
      JUDGES.disks,
      TEXT.diskBelow(GiB(MIN_FREE_DISK_BYTES), DATA_PATH),
      { path: DATA_PATH, minimum_free_bytes: MIN_FREE_DISK_BYTES },
      at,
    ),
    judgeAll(
      'hosts.systemd',
      TEXT.systemdTitle,
      hosts,
      JUDGES.systemd,
      TEXT.systemdNeeded(MIN_SYSTEMD_VERSION),
      { minimum_version: MIN_SYSTEMD_VERSION },
      at,
    ),
    warnIf(
      'hosts.facts_age',
      TEXT.factsTitle,
      views.filter((v) => !v.facts_at || now - new Date(v.facts_at).getTime() > FACTS_FRESH_MS).map((v) => v.name),
      { facts_at: Object.fromEntries(views.map((v) => [v.name, v.facts_at])), fresh_within_s: FACTS_FRESH_MS / 1000 },
      TEXT.factsOld,
    ),
    warnIf(
      'hosts.agent',
      TEXT.agentTitle,
      views
        .filter((v) => !v.agent.connected || !v.agent.agent_version || majorMinor(v.agent.agent_version) !== majorMinor(managerVersion))
        .map((v) => `${v.name} (${v.state}, ${v.agent.agent_version ?? 'no version'})`),
      {
        manager_version: managerVersion,
        agents: views.map((v) => ({ host: v.name, state: v.state, agent_version: v.agent.agent_version })),
      },
      TEXT.agentsBehind,
    ),
    warnIf(
      'hosts.cpu',
      TEXT.cpuTitle,
      hosts.filter((h) => (h.facts?.cpu.cores ?? 0) < 2).map((h) => `${h.name} (${h.facts?.cpu.cores ?? '?'})`),
      { cores: Object.fromEntries(hosts.map((h) => [h.name, h.facts?.cpu.cores ?? null])) },
      TEXT.fewCores,
    ),
  ];
}
