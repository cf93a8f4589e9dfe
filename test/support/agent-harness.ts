// A whole cluster path with real processes: the Kubernetes API test server (or KUBECONFIG's cluster), the
// headless manager with its embedded gateway, and agent replicas as separate `node navin-agent.cjs` processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { importRbacYaml } from '../../main/core/kubernetes/import-rbac';
import { kubeTarget, type KubeTarget } from './kube-api/target';
import { runCli, startServe, type Served } from './cli';
import { tempDir } from './temp-dir';
import { apiCall } from './api-call';
import { logCollector, type AgentLogs, type LogLine } from './agent-logs';

export const AGENT = fileURLToPath(new URL('../../out/agent/navin-agent.cjs', import.meta.url));
export const NS = 'navin-platform';
const IMAGE = `registry.local/navin/agent@sha256:${'e'.repeat(64)}`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface AgentProcess extends AgentLogs {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface Harness {
  kube: KubeTarget;
  admin: KubeConfig;
  dir: string;
  dataDir: string;
  token: string;
  manager: Served;
  gatewayPort: number;
  clusterId: string;
  identityDir: string;
  agentKubeconfig: string;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  startManager(): Promise<void>;
  startAgent(name: string, env?: NodeJS.ProcessEnv, extraArgs?: string[]): AgentProcess;
  components(): Promise<Map<string, any>>;
  waitCommand(id: string, until: (c: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export async function until<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** A command of the manager, read through the API until `check` holds (its state, usually). */
export function waitCommand(
  api: (method: string, path: string) => Promise<{ status: number; body: any }>,
  id: string,
  check: (c: any) => boolean,
  timeoutMs = 30_000,
): Promise<any> {
  return until(
    `command ${id}`,
    async () => {
      const r = await api('GET', `/api/v1/commands/${id}`);
      return check(r.body) ? r.body : undefined;
    },
    timeoutMs,
  );
}

/** Waits until the manager's preflight can judge the cluster from the inventory its agent reported. */
export function agentInventoryReported(h: Harness, timeoutMs = 30_000): Promise<unknown> {
  return until(
    'the agent inventory in the preflight',
    async () => {
      const run = (await h.api('POST', `/api/v1/clusters/${h.clusterId}/preflight`)).body as { checks?: { id: string; status: string }[] };
      return run.checks?.find((c) => c.id === 'kubernetes.api')?.status === 'pass' ? run : undefined;
    },
    timeoutMs,
    500,
  );
}

/** `defaultServerName`: the gateway's and the agent config's server name left to their defaults (the gateway host, 127.0.0.1). */
export async function harness(opts: { offlineAfterS?: number; defaultServerName?: boolean } = {}): Promise<Harness> {
  const tmp = tempDir('navin-agent-e2e-');
  const dir = tmp.path;
  const dataDir = join(dir, 'data');
  const kube = await kubeTarget();
  await kube.apply(importRbacYaml(NS, 'edge'));
  const pw = join(dir, 'pw');
  writeFileSync(pw, 'correct horse battery\n');
  if (runCli(['user', 'add', '--data-dir', dataDir, '--name', 'alice', '--role', 'admin', '--password-file', pw]).status !== 0)
    throw new Error('user add failed');
  const token = runCli(['token', 'create', '--data-dir', dataDir, '--user', 'alice']).stdout.trim();
  const gatewayPort = await freePort();
  const agents: AgentProcess[] = [];

  const h: Harness = {
    kube,
    admin: kube.kubeConfig(),
    dir,
    dataDir,
    token,
    manager: undefined as unknown as Served,
    gatewayPort,
    clusterId: '',
    identityDir: join(dir, 'identity'),
    agentKubeconfig: join(dir, 'agent.kubeconfig'),
    api(method, path, body) {
      return apiCall(h.manager.url, readFileSync(join(dataDir, 'tls', 'ca.crt')), token, method, path, body);
    },
    async startManager() {
      h.manager = await startServe([
        '--data-dir',
        dataDir,
        '--gateway-port',
        String(gatewayPort),
        ...(opts.defaultServerName ? [] : ['--gateway-server-name', 'localhost']),
      ]);
    },
    startAgent(name, env = {}, extraArgs = []) {
      const inbox = join(dir, `inbox-${name}`);
      mkdirSync(inbox, { recursive: true });
      const child = spawn(
        process.execPath,
        [AGENT, '--identity-dir', h.identityDir, '--kubeconfig', h.agentKubeconfig, '--replica', name, '--inbox', inbox, ...extraArgs],
        {
          // A dead proxy in the environment must not matter: the agent connects directly.
          env: {
            PATH: process.env.PATH,
            HTTPS_PROXY: 'http://127.0.0.1:9',
            HTTP_PROXY: 'http://127.0.0.1:9',
            https_proxy: 'http://127.0.0.1:9',
            NO_PROXY: '',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const lines: LogLine[] = [];
      const { logs, waitFor } = logCollector(name, child.stdout!, lines);
      child.stderr!.on('data', (c: Buffer) => lines.push({ event: 'stderr', line: c.toString() }));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const proc: AgentProcess = {
        name,
        child,
        logs,
        exited,
        waitFor,
        kill(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      };
      agents.push(proc);
      return proc;
    },
    async components() {
      const res = (await h.admin
        .makeApiClient(CustomObjectsApi)
        .listNamespacedCustomObject({ group: 'platform.navin.ai', version: 'v1alpha1', namespace: NS, plural: 'managedcomponents' })) as {
        items: any[];
      };
      return new Map(res.items.map((i) => [i.metadata.name as string, i]));
    },
    waitCommand: (id, check, timeoutMs) => waitCommand(h.api, id, check, timeoutMs),
    async close() {
      await Promise.all(agents.map((a) => a.kill('SIGKILL')));
      await h.manager?.stop();
      await kube.close();
      tmp.remove();
    },
  };

  await h.startManager();
  const created = await h.api('POST', '/api/v1/clusters', { name: 'edge' });
  h.clusterId = created.body.id;
  const identity = await h.api('POST', `/api/v1/clusters/${h.clusterId}/kubernetes/agent`, {
    gateway_url: `https://127.0.0.1:${gatewayPort}`,
    ...(opts.defaultServerName ? {} : { server_name: 'localhost' }),
    offline_after_s: opts.offlineAfterS ?? 120,
  });
  if (identity.status !== 201) throw new Error(`identity: ${JSON.stringify(identity.body)}`);
  mkdirSync(h.identityDir, { recursive: true });
  for (const [f, text] of Object.entries(identity.body.files as Record<string, string>))
    writeFileSync(join(h.identityDir, f), text, { mode: 0o600 });
  const manifests = await h.api('GET', `/api/v1/clusters/${h.clusterId}/kubernetes/agent/manifests?image=${encodeURIComponent(IMAGE)}`);
  await kube.apply(manifests.body as string);
  writeFileSync(h.agentKubeconfig, kube.kubeconfigFor(await kube.createToken(NS, 'navin-cluster-agent')), { mode: 0o600 });
  return h;
}
