// The catalog's preflight of a service install on the hosts chosen for it, judged on the facts each node agent
// last reported: its declared ports free, the kernel settings it needs, the tools its steps run, and the CPU,
// memory and disk of one instance. Any of them failing stops the install before anything is written.
import type { CatalogDescriptor } from '../catalog/catalog-schema';
import type { Bilingual } from '../../contract/bilingual';
import { check } from '../checks/check';
import type { CheckResult } from '../../contract/check-types';
import type { HostFacts } from '../../wire/node-agent';
import { DATA_PATH, diskFor } from './host-preflight';
import { SERVICE_HOST_TEXT as TEXT } from './service-host-texts';

export interface CheckedHost {
  name: string;
  facts: HostFacts | null;
}

const METHOD = 'compare the catalog’s requirements of the service with the facts each host’s node agent last reported';
const UNITS: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

/** Bytes of a Kubernetes memory quantity such as 512Mi. */
export const bytesOf = (q: string): number => Number.parseInt(q, 10) * (UNITS[q.replace(/^[0-9]+/, '')] ?? 1);
/** Millicores of a Kubernetes CPU quantity such as 500m or 1.5. */
export const millicoresOf = (q: string): number => (q.endsWith('m') ? Number.parseInt(q, 10) : Math.round(Number.parseFloat(q) * 1000));

type Finding = { host: string; problems: string[]; unknown?: boolean };

function verdict(
  id: string,
  title: Bilingual,
  findings: Finding[],
  failing: (l: string) => Bilingual,
  evidence: object,
  at: string,
): CheckResult {
  const ev = { method: METHOD, ...evidence, hosts: findings };
  if (findings.length === 0) return check(id, title, 'fail', ev, TEXT.noHost, at);
  const bad = findings.filter((f) => f.problems.length > 0);
  if (bad.length > 0) return check(id, title, 'fail', ev, failing(bad.map((f) => `${f.host} (${f.problems.join(', ')})`).join('; ')), at);
  const unknown = findings.filter((f) => f.unknown).map((f) => f.host);
  if (unknown.length > 0) return check(id, title, 'warn', ev, TEXT.notReported(unknown.join(', ')), at);
  return check(id, title, 'pass', ev, null, at);
}

const noFacts = (h: CheckedHost): Finding => ({ host: h.name, problems: ['no facts reported'] });

export function serviceHostChecks(
  desc: CatalogDescriptor,
  hosts: CheckedHost[],
  opts: { portsHeldByService: boolean },
  at: string,
): CheckResult[] {
  const s = desc.service;
  const ports = desc.preflight.free_ports.map((p) => ({ name: p, port: desc.ports[p]!.port }));
  const portFindings = hosts.map((h): Finding => {
    if (!h.facts) return noFacts(h);
    if (!h.facts.listening_ports) return { host: h.name, problems: [], unknown: true };
    // A configuration or restart of the service itself finds its own ports taken: only an install needs them free.
    if (opts.portsHeldByService) return { host: h.name, problems: [] };
    const busy = ports.filter((p) => h.facts!.listening_ports!.includes(p.port));
    return { host: h.name, problems: busy.map((p) => `${p.name} ${p.port}`) };
  });
  const kernelFindings = hosts.map((h): Finding => {
    if (!h.facts) return noFacts(h);
    if (!h.facts.sysctl) return { host: h.name, problems: [], unknown: true };
    const problems = desc.preflight.kernel.flatMap((k) => {
      const seen = h.facts!.sysctl![k.key];
      if (seen === undefined) return [`${k.key} absent`];
      if (k.min !== undefined && !(Number(seen) >= k.min)) return [`${k.key} = ${seen} < ${k.min}`];
      if (k.equals !== undefined && String(k.equals) !== seen) return [`${k.key} = ${seen} ≠ ${k.equals}`];
      return [];
    });
    return { host: h.name, problems };
  });
  const toolFindings = hosts.map((h): Finding => {
    if (!h.facts) return noFacts(h);
    if (!h.facts.tools) return { host: h.name, problems: [], unknown: true };
    return { host: h.name, problems: desc.preflight.tools.filter((t) => h.facts!.tools![t] !== true) };
  });
  const memory = bytesOf(desc.resources.min_memory);
  const cpu = millicoresOf(desc.resources.min_cpu);
  const disk = desc.resources.min_disk ? bytesOf(desc.resources.min_disk) : 0;
  const capacityFindings = hosts.map((h): Finding => {
    if (!h.facts) return noFacts(h);
    const problems: string[] = [];
    if (h.facts.cpu.cores * 1000 < cpu) problems.push(`${h.facts.cpu.cores} CPU < ${desc.resources.min_cpu}`);
    if (h.facts.memory.total_bytes < memory) problems.push(`memory ${h.facts.memory.total_bytes} B < ${desc.resources.min_memory}`);
    const d = diskFor(h.facts, DATA_PATH);
    if (disk > 0 && (!d || d.available_bytes < disk)) problems.push(`free disk ${d?.available_bytes ?? 0} B < ${desc.resources.min_disk}`);
    return { host: h.name, problems };
  });
  return [
    verdict(`service.${s}.ports`, TEXT.portsTitle(s), portFindings, TEXT.portsBusy, { ports }, at),
    verdict(`service.${s}.kernel`, TEXT.kernelTitle(s), kernelFindings, TEXT.kernelBelow, { kernel: desc.preflight.kernel }, at),
    verdict(`service.${s}.tools`, TEXT.toolsTitle(s), toolFindings, TEXT.toolsMissing, { tools: desc.preflight.tools }, at),
    verdict(
      `service.${s}.capacity`,
      TEXT.capacityTitle(s),
      capacityFindings,
      TEXT.capacityShort,
      { per_instance: desc.resources, data_path: DATA_PATH },
      at,
    ),
  ];
}
