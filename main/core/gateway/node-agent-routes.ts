// The gateway's node-agent routes, for a client certificate bound to a host: the long poll of that host's own
// commands, the facts report, receipts and plan progress. A receipt or progress report for another host's
// command is refused 403 (and audited by HostCommands).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '../store/store';
import { ForbiddenReceiptError } from '../commands/commands';
import type { HostCommands } from '../hosts/host-commands';
import type { AgentContacts } from '../clusters/agent-contacts';
import { AGENT_HEADERS } from '../../wire/protocol';
import { NODE_AGENT_PATHS } from '../../wire/node-agent';
import { HOST_REPORT, PLAN_PROGRESS, RECEIPT_BATCH } from '../../wire/agent-requests';
import { CoreError } from '../errors';
import { statusOf } from '../../contract/error-codes';
import { agentBody } from './agent-body';
import { receiptsOf, recordBatch } from './receipt-batch';

export interface NodeAgentRouteDeps {
  store: Store;
  hosts: HostCommands;
  /** Records and announces the host agent's contact. */
  contacts: AgentContacts;
  readJson(): Promise<unknown>;
  reply(status: number, body: unknown): void;
  poll(waitS: number): Promise<unknown[]>;
  longPollMaxS: number;
}

export async function nodeAgentRoute(
  req: IncomingMessage,
  _res: ServerResponse,
  url: URL,
  who: { hostId: string; serial: string },
  d: NodeAgentRouteDeps,
): Promise<void> {
  const host = d.store.hosts.get(who.hostId);
  if (!host) throw new CoreError('certificate_refused', 'the host of this certificate was removed');
  const actor = `agent:host:${who.hostId}`;
  const version = req.headers[AGENT_HEADERS.version];
  const agentVersion = (Array.isArray(version) ? version[0] : version)?.slice(0, 64) ?? null;
  d.contacts.hostAgentSeen(host, { agent_version: agentVersion, certificate_serial: who.serial });

  if (req.method === 'GET' && url.pathname === NODE_AGENT_PATHS.commands) {
    const wait = Math.max(0, Math.min(Number(url.searchParams.get('wait') ?? d.longPollMaxS) || 0, d.longPollMaxS));
    return d.reply(200, { commands: await d.poll(wait) });
  }
  if (req.method === 'POST' && url.pathname === NODE_AGENT_PATHS.report) {
    d.hosts.recordReport(who.hostId, agentBody(HOST_REPORT, await d.readJson()));
    return d.reply(200, { stored: true });
  }
  if (req.method === 'POST' && url.pathname === NODE_AGENT_PATHS.receipts) {
    const batch = agentBody(RECEIPT_BATCH, await d.readJson());
    const { accepted, refused } = recordBatch(receiptsOf(batch.receipts), (r) => d.hosts.recordReceipt(who.hostId, r, actor));
    if (refused)
      return d.reply(statusOf('forbidden'), {
        error: { code: 'forbidden', message: `command ${refused} is not a command of this host` },
        accepted,
      });
    return d.reply(200, { accepted });
  }
  if (req.method === 'POST' && url.pathname === NODE_AGENT_PATHS.progress) {
    const body = agentBody(PLAN_PROGRESS, await d.readJson());
    try {
      d.hosts.recordProgress(who.hostId, body, actor);
    } catch (error) {
      if (error instanceof ForbiddenReceiptError)
        throw new CoreError('forbidden', `command ${body.command_id} is not a command of this host`);
      throw error;
    }
    return d.reply(200, { stored: true });
  }
  throw new CoreError('not_found', `no gateway route ${req.method} ${url.pathname}`);
}
