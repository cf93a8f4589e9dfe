// The host path with real processes on this machine: the headless manager with its embedded gateway, a hosts
// cluster, and node agents as separate `node navin-node-agent.cjs` processes, each with its own identity, state
// folder, inbox and a temp folder standing for the host's "/" (--prefix).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitCommand } from './agent-harness';
import { apiCall } from './api-call';
import { runCli, startServe, type Served } from './cli';
import { tempDir } from './temp-dir';
import { logCollector, type AgentLogs, type LogLine } from './agent-logs';

export { logCollector, type AgentLogs, type LogLine };

const DEAD = 'http://127.0.0.1:9';
const DEAD_PROXY = { HTTPS_PROXY: DEAD, https_proxy: DEAD, HTTP_PROXY: DEAD, http_proxy: DEAD, ALL_PROXY: DEAD, grpc_proxy: DEAD };
export const NODE_AGENT = fileURLToPath(new URL('../../out/agent/navin-node-agent.cjs', import.meta.url));

export interface NodeAgentProcess extends AgentLogs {
  child: ChildProcess;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface LocalHost {
  id: string;
  name: string;
  /** The folder standing for the host's "/". */
  root: string;
  stateDir: string;
  identityDir: string;
  inbox: string;
  /** Every line of every process of this host's agent, in order. */
  lines: LogLine[];
  start(env?: NodeJS.ProcessEnv): NodeAgentProcess;
}

export interface HostsHarness {
  dir: string;
  dataDir: string;
  manager: Served;
  gatewayPort: number;
  clusterId: string;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  startManager(): Promise<void>;
  /** Adds a host to the cluster and issues its node agent identity (the API's answer). */
  enroll(name: string, address: string, opts?: { offlineAfterS?: number }): Promise<{ id: string; identity: any }>;
  addHost(name: string, opts?: { offlineAfterS?: number }): Promise<LocalHost>;
  /** https://<gateway host>:<port>, as the agents reach it. */
  gatewayUrl: string;
  waitCommand(id: string, until: (c: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export async function hostsHarness(opts: { profile?: string; gatewayHost?: string; catalogDir?: string } = {}): Promise<HostsHarness> {
  const tmp = tempDir('navin-node-agent-');
  const dir = tmp.path;
  const dataDir = join(dir, 'data');
  const pw = join(dir, 'pw');
  writeFileSync(pw, 'correct horse battery\n');
  if (runCli(['user', 'add', '--data-dir', dataDir, '--name', 'alice', '--role', 'admin', '--password-file', pw]).status !== 0)
    throw new Error('user add failed');
  const token = runCli(['token', 'create', '--data-dir', dataDir, '--user', 'alice']).stdout.trim();
  const gatewayPort = await freePort();
  const procs: NodeAgentProcess[] = [];

  const h: HostsHarness = {
    dir,
    dataDir,
    manager: undefined as unknown as Served,
    gatewayPort,
    clusterId: '',
    gatewayUrl: `https://${opts.gatewayHost ?? '127.0.0.1'}:${gatewayPort}`,
    api: (method, path, body) => apiCall(h.manager.url, readFileSync(join(dataDir, 'tls', 'ca.crt')), token, method, path, body),
    async startManager() {
      h.manager = await startServe([
        '--data-dir',
        dataDir,
        '--gateway-host',
        opts.gatewayHost ?? '127.0.0.1',
        '--gateway-port',
        String(gatewayPort),
        '--gateway-server-name',
        'localhost',
        ...(opts.catalogDir ? ['--catalog', opts.catalogDir] : []),
      ]);
    },
    async enroll(name, address, o = {}) {
      const added = await h.api('POST', `/api/v1/clusters/${h.clusterId}/hosts`, { name, address });
      if (added.status !== 201) throw new Error(`add host: ${JSON.stringify(added.body)}`);
      const identity = await h.api('POST', `/api/v1/hosts/${added.body.id}/agent`, {
        gateway_url: h.gatewayUrl,
        server_name: 'localhost',
        offline_after_s: o.offlineAfterS ?? 120,
      });
      if (identity.status !== 201) throw new Error(`identity: ${JSON.stringify(identity.body)}`);
      return { id: added.body.id as string, identity: identity.body };
    },
    async addHost(name, o = {}) {
      const { id, identity } = await h.enroll(name, '127.0.0.1', o);
      const base = join(dir, name);
      const host: LocalHost = {
        id,
        name,
        root: join(base, 'root'),
        stateDir: join(base, 'state'),
        identityDir: join(base, 'identity'),
        inbox: join(base, 'inbox'),
        lines: [],
        start(env = {}) {
          const child = spawn(
            process.execPath,
            [NODE_AGENT, '--identity-dir', host.identityDir, '--state-dir', host.stateDir, '--inbox', host.inbox, '--prefix', host.root],
            {
              // A dead proxy in the environment must not matter: the agent and its checks connect directly.
              env: { PATH: process.env.PATH, ...DEAD_PROXY, ...env },
              stdio: ['ignore', 'pipe', 'pipe'],
            },
          );
          const mine: LogLine[] = [];
          const collector = logCollector(name, child.stdout!, mine, host.lines);
          child.stderr!.on('data', (c: Buffer) => mine.push({ event: 'stderr', line: c.toString() }));
          const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
          const proc: NodeAgentProcess = {
            ...collector,
            child,
            exited,
            kill(signal = 'SIGTERM') {
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              return exited;
            },
          };
          procs.push(proc);
          return proc;
        },
      };
      for (const d of [host.root, host.inbox]) mkdirSync(d, { recursive: true });
      mkdirSync(host.identityDir, { recursive: true, mode: 0o700 });
      for (const [f, text] of Object.entries(identity.files as Record<string, string>))
        writeFileSync(join(host.identityDir, f), text, { mode: 0o600 });
      return host;
    },
    waitCommand: (id, check, timeoutMs) => waitCommand(h.api, id, check, timeoutMs),
    async close() {
      await Promise.all(procs.map((p) => p.kill('SIGKILL')));
      await h.manager?.stop();
      tmp.remove();
    },
  };

  await h.startManager();
  const created = await h.api('POST', '/api/v1/clusters', { name: 'edge-hosts', kind: 'hosts', profile: opts.profile ?? 'development' });
  if (created.status !== 201) throw new Error(`cluster: ${JSON.stringify(created.body)}`);
  h.clusterId = created.body.id;
  return h;
}
