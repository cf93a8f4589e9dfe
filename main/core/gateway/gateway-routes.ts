// The agent gateway's routes, in the route table the console API shares (core/http/route-table.ts): for each,
// which certificate may call it (a cluster agent's, or a node agent's bound to a host), the schema of its body
// (wire/agent-requests.ts) and what it does. A receipt or progress report for another cluster's or host's
// command is refused 403 (and audited by its domain). Each kind renews its own certificate on its certificate route.
import type { z } from 'zod';
import { ForbiddenReceiptError } from '../commands/commands';
import type { Commands } from '../commands/commands';
import type { HostCommands } from '../hosts/host-commands';
import type { AgentContacts } from '../clusters/agent-contacts';
import { GATEWAY_PATHS } from '../../wire/protocol';
import { NODE_AGENT_PATHS } from '../../wire/node-agent';
import { CERTIFICATE_RENEWAL, CLUSTER_REPORT, HOST_REPORT, PLAN_PROGRESS, RECEIPT_BATCH } from '../../wire/agent-requests';
import type { CertificateRenewalResponse } from '../../wire/certificate-renewal';
import { CoreError } from '../errors';
import { statusOf } from '../../contract/error-codes';
import { RouteTable } from '../http/route-table';
import { agentBody } from './agent-body';
import { receiptsOf, recordBatch } from './receipt-batch';

export type AgentKind = 'cluster' | 'node';

/** What every agent's route is handed. */
interface AgentCall {
  query: URLSearchParams;
  longPollMaxS: number;
  /** The agent's due commands, held as a long poll up to `waitS` seconds. */
  poll(waitS: number): Promise<unknown[]>;
  /** A certificate for the key of the CSR, for the agent of the calling certificate (agent-renewals.ts). */
  renewCertificate(csrPem: string): CertificateRenewalResponse;
}

export interface ClusterAgentCall extends AgentCall {
  clusterId: string;
  /** Records the agent's contact; `leader`: the sending replica is its cluster's leader. */
  seen(leader: boolean): void;
  commands: Pick<Commands, 'recordReceipt'>;
  contacts: Pick<AgentContacts, 'inventoryReported'>;
}

/** A node agent's contact is recorded before its route runs (and its body is read). */
export interface NodeAgentCall extends AgentCall {
  hostId: string;
  hosts: Pick<HostCommands, 'recordReport' | 'recordReceipt' | 'recordProgress'>;
}

export interface AgentAnswer {
  status: number;
  body: unknown;
}

interface AgentRoute<A extends AgentKind, C> {
  method: 'GET' | 'POST';
  pattern: string;
  agent: A;
  /** The body's schema, parsed before the route acts (none: the body is not read). */
  body: z.ZodType | undefined;
  run(call: C, readJson: () => Promise<unknown>): Promise<AgentAnswer>;
}

export type GatewayRoute = AgentRoute<'cluster', ClusterAgentCall> | AgentRoute<'node', NodeAgentCall>;

/** The routes under this prefix are a node agent's; a path no route has is judged by it too. */
export const NODE_AGENT_PREFIX = '/v1/node-agent/';

export const agentOfPath = (path: string): AgentKind => (path.startsWith(NODE_AGENT_PREFIX) ? 'node' : 'cluster');

/** A GET route, whose body is not read. */
function get<A extends AgentKind, C>(agent: A, pattern: string, act: (call: C) => Promise<AgentAnswer>): AgentRoute<A, C> {
  return { method: 'GET', pattern, agent, body: undefined, run: (call) => act(call) };
}

/** A POST route, its body parsed by `schema` (400 bad_request naming the faulty value) before it acts. */
function post<A extends AgentKind, C, B>(
  agent: A,
  pattern: string,
  schema: z.ZodType<B>,
  act: (call: C, body: B) => AgentAnswer,
): AgentRoute<A, C> {
  return { method: 'POST', pattern, agent, body: schema, run: async (call, readJson) => act(call, agentBody(schema, await readJson())) };
}

const stored = (): AgentAnswer => ({ status: 200, body: { stored: true } });

/** The wait an agent asks of its long poll, bounded by the gateway's. */
const waitOf = (call: AgentCall): number =>
  Math.max(0, Math.min(Number(call.query.get('wait') ?? call.longPollMaxS) || 0, call.longPollMaxS));

/** A batch of receipts answered: those accepted, and a refusal naming the command of another cluster or host. */
function receiptsAnswer(batch: { accepted: string[]; refused?: string }, of: 'cluster' | 'host'): AgentAnswer {
  const { accepted, refused } = batch;
  if (refused)
    return {
      status: statusOf('forbidden'),
      body: { error: { code: 'forbidden', message: `command ${refused} is not a command of this ${of}` }, accepted },
    };
  return { status: 200, body: { accepted } };
}

export const GATEWAY_ROUTES = new RouteTable<GatewayRoute>({
  // Agents rely on the codes: a known path with a wrong method has always been not_found here.
  notFound: (method, path) => `no gateway route ${method} ${path}`,
})
  .add(
    get('cluster', GATEWAY_PATHS.commands, async (c: ClusterAgentCall) => {
      c.seen(true);
      return { status: 200, body: { commands: await c.poll(waitOf(c)) } };
    }),
  )
  .add(
    post('cluster', GATEWAY_PATHS.report, CLUSTER_REPORT, (c: ClusterAgentCall, body) => {
      c.seen(body.leader === true);
      c.contacts.inventoryReported(c.clusterId, body.inventory, body.components);
      return stored();
    }),
  )
  .add(
    post('cluster', GATEWAY_PATHS.receipts, RECEIPT_BATCH, (c: ClusterAgentCall, batch) => {
      c.seen(false);
      const receipts = receiptsOf(batch.receipts);
      return receiptsAnswer(
        recordBatch(receipts, (r) => c.commands.recordReceipt(c.clusterId, r, `agent:${c.clusterId}`)),
        'cluster',
      );
    }),
  )
  .add(
    post('cluster', GATEWAY_PATHS.certificate, CERTIFICATE_RENEWAL, (c: ClusterAgentCall, body) => {
      c.seen(false);
      return { status: 200, body: c.renewCertificate(body.csr) };
    }),
  )
  .add(get('node', NODE_AGENT_PATHS.commands, async (c: NodeAgentCall) => ({ status: 200, body: { commands: await c.poll(waitOf(c)) } })))
  .add(
    post('node', NODE_AGENT_PATHS.report, HOST_REPORT, (c: NodeAgentCall, body) => {
      c.hosts.recordReport(c.hostId, body);
      return stored();
    }),
  )
  .add(
    post('node', NODE_AGENT_PATHS.receipts, RECEIPT_BATCH, (c: NodeAgentCall, batch) =>
      receiptsAnswer(
        recordBatch(receiptsOf(batch.receipts), (r) => c.hosts.recordReceipt(c.hostId, r, `agent:host:${c.hostId}`)),
        'host',
      ),
    ),
  )
  .add(
    post('node', NODE_AGENT_PATHS.progress, PLAN_PROGRESS, (c: NodeAgentCall, body) => {
      try {
        c.hosts.recordProgress(c.hostId, body, `agent:host:${c.hostId}`);
      } catch (error) {
        if (error instanceof ForbiddenReceiptError)
          throw new CoreError('forbidden', `command ${body.command_id} is not a command of this host`);
        throw error;
      }
      return stored();
    }),
  )
  .add(
    post('node', NODE_AGENT_PATHS.certificate, CERTIFICATE_RENEWAL, (c: NodeAgentCall, body) => ({
      status: 200,
      body: c.renewCertificate(body.csr),
    })),
  );
