// Preflight checks read live from the Kubernetes API with the import identity: the API and its version, the
// nodes (Ready, OS, architecture) and the capacity left for the managed components.
import type { Tables } from '../domain-tables';
import { CoreV1Api, VersionApi } from '@kubernetes/client-node';
import { quantityToScalar } from '@kubernetes/client-node/dist/util.js';
import type { Registration } from '../clusters/registration';
import { catalogEntry } from '../commands/component-catalog';
import { classifyKubeError, kubeConfigFor } from '../kubernetes/kube-client';
import { MIN_MINOR_VERSION } from '../kubernetes/registration-check';
import { withTimeout } from '../checks/component-checks';
import { nodeInventory, type Inventory, type NodeInventory } from '../../wire/inventory';
import type { CheckResult } from '../../contract/check-types';
import { check } from '../checks/check';
import type { Bilingual } from '../../contract/bilingual';
import { TEXT } from './preflight-texts';

const SUPPORTED_OS = new Set(['linux']);
const SUPPORTED_ARCH = new Set(['amd64', 'arm64']);

type Spec = { component?: unknown; replicas?: unknown; resources?: { cpu?: unknown; memory?: unknown } };

const T = { api: TEXT.apiTitle, nodes: TEXT.nodesTitle, capacity: TEXT.capacityTitle };

const num = (q: string): number => Number(quantityToScalar(q));

const fail3 = (evidence: CheckResult['evidence'], reason: Bilingual, at: () => string): CheckResult[] => [
  check('kubernetes.api', T.api, 'fail', evidence, reason, at()),
  check('kubernetes.nodes', T.nodes, 'fail', evidence, reason, at()),
  check('capacity', T.capacity, 'fail', evidence, reason, at()),
];

/**
 * Reads the API with the import identity when the cluster was registered; a cluster reached only through its
 * agent is judged on the inventory the agent read with its own identity and last reported.
 */
export async function kubeChecks(
  clusterId: string,
  registration: Registration,
  tables: Tables<'clusterAccess'>,
  components: Record<string, Spec>,
  at: () => string,
  timeoutMs: number,
): Promise<CheckResult[]> {
  const access = registration.access(clusterId);
  let source: string;
  let gitVersion: string;
  let nodes: NodeInventory[];
  if (access) {
    source = `GET ${access.server}/version and /api/v1/nodes with the import identity`;
    const kc = kubeConfigFor(access);
    try {
      const [version, list] = await withTimeout(
        Promise.all([kc.makeApiClient(VersionApi).getCode(), kc.makeApiClient(CoreV1Api).listNode()]),
        timeoutMs,
      );
      gitVersion = version.gitVersion;
      nodes = list.items.map(nodeInventory);
    } catch (error) {
      const e = classifyKubeError(error, access.server);
      return fail3({ method: source, error_code: e.code, error: e.message }, TEXT.apiUnreadable(e.message), at);
    }
  } else {
    const snapshot = tables.clusterAccess.latestAgentSnapshot(clusterId);
    const inv = snapshot?.data as Partial<Inventory> | undefined;
    if (!snapshot || !inv?.kubernetes_version || !Array.isArray(inv.nodes)) {
      return fail3(
        {
          method: 'looked up the registered access of the cluster and the inventory reported by its agent',
          registered: false,
          agent_inventory: null,
        },
        TEXT.nothingToCheck,
        at,
      );
    }
    source = `the inventory the agent read through the Kubernetes API and reported at ${snapshot.taken_at}`;
    gitVersion = inv.kubernetes_version;
    nodes = inv.nodes;
  }
  const minor = Number.parseInt(/^v?\d+\.(\d+)/.exec(gitVersion)?.[1] ?? '', 10);
  const versionEvidence = { method: source, git_version: gitVersion, minimum: `1.${MIN_MINOR_VERSION}` };
  const api =
    Number.isFinite(minor) && minor >= MIN_MINOR_VERSION
      ? check('kubernetes.api', T.api, 'pass', versionEvidence, null, at())
      : check('kubernetes.api', T.api, 'fail', versionEvidence, TEXT.kubernetesTooOld(gitVersion, `1.${MIN_MINOR_VERSION}`), at());
  return [api, nodesCheck(nodes, source, at()), capacityCheck(nodes, components, at())];
}

function nodesCheck(facts: NodeInventory[], source: string, at: string): CheckResult {
  const evidence = { method: source, nodes: facts, supported_os: [...SUPPORTED_OS], supported_architectures: [...SUPPORTED_ARCH] };
  const usable = facts.filter((f) => f.ready && SUPPORTED_OS.has(f.operating_system) && SUPPORTED_ARCH.has(f.architecture));
  if (usable.length === 0) return check('kubernetes.nodes', T.nodes, 'fail', evidence, TEXT.noUsableNode, at);
  const others = facts
    .filter((f) => !usable.includes(f))
    .map((f) => `${f.name} (${f.ready ? `${f.operating_system}/${f.architecture}` : 'NotReady'})`);
  if (others.length) return check('kubernetes.nodes', T.nodes, 'warn', evidence, TEXT.nodesNotUsable(others.join(', ')), at);
  return check('kubernetes.nodes', T.nodes, 'pass', evidence, null, at);
}

/** What one instance of a component needs: the larger of its declared resources and the catalog minimum. */
function perInstance(spec: Spec): { cpu: number; memory: number } {
  const min = catalogEntry(String(spec.component))?.minimum ?? { cpu: '0', memory: '0' };
  const cpu = typeof spec.resources?.cpu === 'string' ? num(spec.resources.cpu) : 0;
  const memory = typeof spec.resources?.memory === 'string' ? num(spec.resources.memory) : 0;
  return { cpu: Math.max(cpu, num(min.cpu)), memory: Math.max(memory, num(min.memory)) };
}

function capacityCheck(nodes: NodeInventory[], components: Record<string, Spec>, at: string): CheckResult {
  const ready = nodes.filter((f) => f.ready);
  let allocatable: { cpu: number; memory: number };
  let needs: { name: string; replicas: number; cpu: number; memory: number }[];
  try {
    // A node that reports no allocatable figure (an empty quantity) adds nothing.
    allocatable = ready.reduce(
      (a, f) => ({ cpu: a.cpu + num(f.allocatable?.cpu || '0'), memory: a.memory + num(f.allocatable?.memory || '0') }),
      { cpu: 0, memory: 0 },
    );
    needs = Object.entries(components).map(([name, spec]) => {
      const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
      const one = perInstance(spec);
      return { name, replicas, cpu: one.cpu * replicas, memory: one.memory * replicas };
    });
  } catch (error) {
    return check(
      'capacity',
      T.capacity,
      'fail',
      { method: 'summed the allocatable of Ready nodes and the needs of the components' },
      TEXT.quantityUnreadable((error as Error).message),
      at,
    );
  }
  const total = needs.reduce((a, n) => ({ cpu: a.cpu + n.cpu, memory: a.memory + n.memory }), { cpu: 0, memory: 0 });
  const evidence = {
    method:
      'summed the allocatable CPU and memory of the Ready nodes and each component’s minimum × replicas (the larger of spec.resources and the catalog minimum)',
    allocatable: { cpu_cores: allocatable.cpu, memory_bytes: allocatable.memory },
    needed: { cpu_cores: total.cpu, memory_bytes: total.memory },
    components: needs,
  };
  const short: string[] = [];
  if (total.cpu > allocatable.cpu) short.push(`CPU ${total.cpu} > ${allocatable.cpu} cores`);
  if (total.memory > allocatable.memory) short.push(`memory ${total.memory} > ${allocatable.memory} bytes`);
  if (short.length) return check('capacity', T.capacity, 'fail', evidence, TEXT.notEnoughCapacity(short.join(', ')), at);
  return check('capacity', T.capacity, 'pass', evidence, null, at);
}
