// The preflight's host checks for a cluster of kind hosts, judged on the facts each node agent last reported:
// OS, architecture, memory, disks and systemd block an install; the age of the facts, the agent's connection
// and version, and the CPU count only warn.
import type { Clock } from '../clock';
import { check, why } from '../preflight/check';
import type { CheckResult, CheckStatus } from '../preflight/check-types';
import { bilingual, type Bilingual } from '../reports/report-types';
import type { Store } from '../store/store';
import type { HostFacts } from '../../wire/node-agent';
import { hostView } from './host-status';

export const SUPPORTED_HOST_OS: Record<string, number> = { debian: 12, ubuntu: 22.04 };
export const SUPPORTED_HOST_ARCH = ['amd64', 'arm64'];
export const MIN_HOST_MEMORY_BYTES = 512 * 1024 * 1024;
export const MIN_FREE_DISK_BYTES = 1024 * 1024 * 1024;
/** Where services keep their data: the file system holding it needs the free space. */
export const DATA_PATH = '/var/lib/navin';
export const MIN_SYSTEMD_VERSION = 247;
export const FACTS_FRESH_MS = 10 * 60_000;

const T = {
  os: bilingual('Hosts run a supported operating system', "Les hôtes ont un système d'exploitation pris en charge"),
  arch: bilingual('Hosts have a supported architecture', 'Les hôtes ont une architecture prise en charge'),
  memory: bilingual('Hosts have enough memory', 'Les hôtes ont assez de mémoire'),
  disks: bilingual('Hosts have free disk space for service data', 'Les hôtes ont de la place disque pour les données des services'),
  systemd: bilingual('Hosts run systemd', 'Les hôtes utilisent systemd'),
  facts: bilingual('Host facts are recent', 'Les faits des hôtes sont récents'),
  agent: bilingual('Node agents are connected and of this version', 'Les agents des hôtes sont connectés et de cette version'),
  cpu: bilingual('Hosts have at least two CPU cores', 'Les hôtes ont au moins deux cœurs'),
};

type Judge = (f: HostFacts) => { ok: boolean; warn?: boolean; seen: unknown; en: string; fr: string };

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
    return {
      ok,
      seen: { platform: f.os.platform, distro: f.os.distro, release: f.os.release },
      en: `${f.os.distro} ${f.os.release}`,
      fr: `${f.os.distro} ${f.os.release}`,
    };
  },
  arch: (f) => ({ ok: SUPPORTED_HOST_ARCH.includes(f.architecture), seen: f.architecture, en: f.architecture, fr: f.architecture }),
  memory: (f) => ({
    ok: f.memory.total_bytes >= MIN_HOST_MEMORY_BYTES,
    seen: f.memory,
    en: `${GiB(f.memory.total_bytes)} of memory`,
    fr: `${GiB(f.memory.total_bytes)} de mémoire`,
  }),
  disks: (f) => {
    const d = diskFor(f, DATA_PATH);
    return {
      ok: !!d && d.available_bytes >= MIN_FREE_DISK_BYTES,
      seen: d ?? null,
      en: d ? `${GiB(d.available_bytes)} free on ${d.mount}` : 'no disk reported',
      fr: d ? `${GiB(d.available_bytes)} libres sur ${d.mount}` : 'aucun disque remonté',
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
      en: f.systemd.version ? `systemd ${f.systemd.version}, ${state ?? 'state unknown'}` : 'no systemd',
      fr: f.systemd.version ? `systemd ${f.systemd.version}, ${state ?? 'état inconnu'}` : 'pas de systemd',
    };
  },
};

const METHOD = 'read the facts each host’s node agent last reported (systeminformation and systemctl on the host)';

function judgeAll(
  id: string,
  title: Bilingual,
  hosts: { name: string; facts: HostFacts | null }[],
  judge: Judge,
  requirement: { en: string; fr: string },
  extra: Record<string, unknown>,
  at: string,
): CheckResult {
  const results = hosts.map((h) =>
    h.facts
      ? { host: h.name, ...judge(h.facts) }
      : { host: h.name, ok: false, seen: null, en: 'no facts reported', fr: 'aucun fait remonté' },
  );
  const evidence = { method: METHOD, ...extra, hosts: results.map((r) => ({ host: r.host, ok: r.ok, observed: r.seen })) };
  if (hosts.length === 0)
    return check(id, title, 'fail', evidence, why('the cluster has no host yet', "le cluster n'a encore aucun hôte"), at);
  const bad = results.filter((r) => !r.ok);
  if (bad.length)
    return check(
      id,
      title,
      'fail',
      evidence,
      why(
        `${requirement.en}: ${bad.map((r) => `${r.host} (${r.en})`).join(', ')}`,
        `${requirement.fr} : ${bad.map((r) => `${r.host} (${r.fr})`).join(', ')}`,
      ),
      at,
    );
  const warned = results.filter((r) => 'warn' in r && r.warn);
  if (warned.length)
    return check(
      id,
      title,
      'warn',
      evidence,
      why(`${warned.map((r) => `${r.host} (${r.en})`).join(', ')}`, `${warned.map((r) => `${r.host} (${r.fr})`).join(', ')}`),
      at,
    );
  return check(id, title, 'pass', evidence, null, at);
}

const majorMinor = (v: string): string => v.split('.').slice(0, 2).join('.');

export function hostChecks(store: Store, clock: Clock, clusterId: string, managerVersion: string, at: string): CheckResult[] {
  const views = store.hosts.list(clusterId).map((h) => hostView(store, clock, h));
  const hosts = views.map((v) => ({ name: v.name, facts: (v.facts as HostFacts | null) ?? null }));
  const now = clock.now().getTime();
  const warnIf = (id: string, title: Bilingual, bad: string[], evidence: Record<string, unknown>, en: string, fr: string): CheckResult => {
    const status: CheckStatus = bad.length || views.length === 0 ? 'warn' : 'pass';
    const list = views.length === 0 ? 'no host' : bad.join(', ');
    return check(id, title, status, { method: METHOD, ...evidence }, why(`${en}: ${list}`, `${fr} : ${list}`), at);
  };
  return [
    judgeAll('hosts.os', T.os, hosts, JUDGES.os, { en: 'not supported', fr: 'non pris en charge' }, { supported: SUPPORTED_HOST_OS }, at),
    judgeAll(
      'hosts.architecture',
      T.arch,
      hosts,
      JUDGES.arch,
      { en: 'not supported', fr: 'non prise en charge' },
      { supported: SUPPORTED_HOST_ARCH },
      at,
    ),
    judgeAll(
      'hosts.memory',
      T.memory,
      hosts,
      JUDGES.memory,
      { en: `less than ${GiB(MIN_HOST_MEMORY_BYTES)}`, fr: `moins de ${GiB(MIN_HOST_MEMORY_BYTES)}` },
      { minimum_bytes: MIN_HOST_MEMORY_BYTES },
      at,
    ),
    judgeAll(
      'hosts.disks',
      T.disks,
      hosts,
      JUDGES.disks,
      {
        en: `less than ${GiB(MIN_FREE_DISK_BYTES)} free for ${DATA_PATH}`,
        fr: `moins de ${GiB(MIN_FREE_DISK_BYTES)} libres pour ${DATA_PATH}`,
      },
      { path: DATA_PATH, minimum_free_bytes: MIN_FREE_DISK_BYTES },
      at,
    ),
    judgeAll(
      'hosts.systemd',
      T.systemd,
      hosts,
      JUDGES.systemd,
      {
        en: `systemd ${MIN_SYSTEMD_VERSION} or newer, running, is needed`,
        fr: `systemd ${MIN_SYSTEMD_VERSION} ou plus récent, en marche, est requis`,
      },
      { minimum_version: MIN_SYSTEMD_VERSION },
      at,
    ),
    warnIf(
      'hosts.facts_age',
      T.facts,
      views.filter((v) => !v.facts_at || now - new Date(v.facts_at).getTime() > FACTS_FRESH_MS).map((v) => v.name),
      { facts_at: Object.fromEntries(views.map((v) => [v.name, v.facts_at])), fresh_within_s: FACTS_FRESH_MS / 1000 },
      'facts older than 10 minutes or missing',
      'faits de plus de 10 minutes ou absents',
    ),
    warnIf(
      'hosts.agent',
      T.agent,
      views
        .filter((v) => !v.agent.connected || !v.agent.agent_version || majorMinor(v.agent.agent_version) !== majorMinor(managerVersion))
        .map((v) => `${v.name} (${v.state}, ${v.agent.agent_version ?? 'no version'})`),
      {
        manager_version: managerVersion,
        agents: views.map((v) => ({ host: v.name, state: v.state, agent_version: v.agent.agent_version })),
      },
      'not connected or another version',
      "non connectés ou d'une autre version",
    ),
    warnIf(
      'hosts.cpu',
      T.cpu,
      hosts.filter((h) => (h.facts?.cpu.cores ?? 0) < 2).map((h) => `${h.name} (${h.facts?.cpu.cores ?? '?'})`),
      { cores: Object.fromEntries(hosts.map((h) => [h.name, h.facts?.cpu.cores ?? null])) },
      'fewer than two cores',
      'moins de deux cœurs',
    ),
  ];
}
