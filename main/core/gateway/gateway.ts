// The agent gateway: HTTPS with TLS 1.2 or newer, a client certificate required and issued by the manager CA
// (its only trust anchor), a revoked or unknown serial refused. A certificate maps to exactly one cluster, and
// the gateway serves only that cluster's commands. A node agent's certificate maps to its host, served on the
// node-agent routes with only that host's commands. Its routes are declared in gateway-routes.ts. An agent renews
// its certificate over this connection; the first request with the new one revokes the old (keys/agent-renewals.ts).
import type { Tables } from '../domain-tables';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SecureContextOptions, TLSSocket } from 'node:tls';
import type { Clock } from '../clock';
import type { CoreEvents } from '../events';
import type { Store } from '../store/store';
import { CoreError } from '../errors';
import { statusOf } from '../../contract/error-codes';
import type { Commands } from '../commands/commands';
import { AGENT_HEADERS, GATEWAY_MAX_BODY, LONG_POLL_MAX_S } from '../../wire/protocol';
import type { CertificateRenewalResponse } from '../../wire/certificate-renewal';
import { LongPolls } from './long-poll';
import type { HostCommands } from '../hosts/host-commands';
import { NODE_AGENT_PATHS } from '../../wire/node-agent';
import { GATEWAY_ROUTES, agentOfPath } from './gateway-routes';
import { BodyTooLarge, readBody, replyThenClose } from '../http/read-body';
import { parseJsonBody } from '../http/json-body';
import { applyConnectionTimeouts } from '../http/connection-timeouts';
import { AgentContacts } from '../clusters/agent-contacts';
import { AgentThrottle } from './agent-rate-limit';
import type { RateLimit } from '../http/rate-limit';
import type { CertificateAuthority } from '../keys/ca';
import { AgentRenewals } from '../certificates/agent-renewals';

export interface GatewayOptions {
  store: Store;
  tables: Tables<'clusterAccess' | 'commands' | 'hosts' | 'keys'>;
  commands: Commands;
  events: CoreEvents;
  clock: Clock;
  caPem: string;
  certPem: string;
  keyPem: string;
  host: string;
  port: number;
  redeliverAfterS?: number;
  longPollMaxS?: number;
  /** Serves the node agents of hosts clusters (absent: their routes answer 404). */
  hosts?: HostCommands;
  /** Requests per agent certificate (AGENT_RATE_LIMIT unless given). */
  agentRateLimit?: RateLimit;
  /** Records and announces what an agent's contact changes (one of its own unless given). */
  contacts?: AgentContacts;
  /** The manager CA, which renews the agents' certificates on their certificate routes (absent: those answer 404). */
  ca?: CertificateAuthority;
}

export interface Gateway {
  server: Server;
  url: string;
  port: number;
  heldPolls(): number;
  /**
   * New connections get this server certificate and trust these CAs (a CA rotation); connections already open,
   * and the long polls they hold, keep theirs until they close.
   */
  reloadTls(tls: { certPem: string; keyPem: string; caPem: string }): void;
  close(): Promise<void>;
}

/** Serial numbers compare as integers: no case, no leading zeros. */
export const normalizeSerial = (s: string): string => s.toLowerCase().replace(/^0+/, '');

export function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const { store, tables, commands, clock, events } = opts;
  const redeliverAfterS = opts.redeliverAfterS ?? 15;
  const longPollMaxS = Math.min(opts.longPollMaxS ?? LONG_POLL_MAX_S, LONG_POLL_MAX_S);
  const polls = new LongPolls(() => store.dataVersion());
  const unsubscribe = commands.onQueued((clusterId) => polls.wake(clusterId));
  const unsubscribeHosts = opts.hosts?.onQueued((hostId) => polls.wake(`host:${hostId}`));
  // An agent identity re-issued announces its cluster or host: the held polls of the revoked certificate end.
  const unsubscribeEvents = events.subscribe((e) => {
    if (e.type === 'cluster.changed') polls.revalidate(e.data.id);
    else if (e.type === 'host.changed') polls.revalidate(`host:${e.data.id}`);
  });
  const serials = new Map<string, string>();
  const contacts = opts.contacts ?? new AgentContacts(store, tables, clock, events);
  const throttle = new AgentThrottle(opts.agentRateLimit);
  const renewals = opts.ca && new AgentRenewals(store, tables, opts.ca, clock, events);
  const renewCertificate = (serial: string, csrPem: string): CertificateRenewalResponse => {
    if (!renewals) throw new CoreError('not_found', 'this gateway renews no certificates');
    return renewals.renew(serial, csrPem);
  };

  /** The cluster (and host) of a live client certificate, or undefined when unknown, revoked or not a client certificate. */
  function clusterOf(socket: TLSSocket): { clusterId: string; serial: string; hostId: string | null } | undefined {
    // The X509Certificate reads the serial alone; getPeerCertificate() built the whole certificate as an object
    // with its fingerprints at every request (6.5 % of a command's round trip in a profile).
    const serialNumber = socket.getPeerX509Certificate()?.serialNumber;
    if (!serialNumber) return undefined;
    const serial = normalizeSerial(serialNumber);
    const record = tables.keys.certificate(serials.get(serial) ?? '') ?? tables.keys.clientCertificateBySerial(serial);
    if (!record || record.kind !== 'client' || record.revoked_at !== null || !record.cluster_id) return undefined;
    serials.set(serial, record.serial);
    if (new Date(record.not_after) < clock.now()) return undefined;
    // The first request with a renewed certificate revokes the one it renewed.
    renewals?.seen(record);
    return { clusterId: record.cluster_id, serial: record.serial, hostId: record.host_id ?? null };
  }

  const secureContext = (t: { certPem: string; keyPem: string; caPem: string }): SecureContextOptions => ({
    key: t.keyPem,
    cert: t.certPem,
    ca: [t.caPem],
    minVersion: 'TLSv1.2',
  });
  const server = createServer({ ...secureContext(opts), requestCert: true, rejectUnauthorized: true }, (req, res) => {
    void handle(req, res).catch((error: unknown) => {
      const e = error instanceof CoreError ? error : new CoreError('internal', 'internal error');
      const status = statusOf(e.code);
      if (status >= 500)
        console.error(JSON.stringify({ level: 'error', event: 'gateway.error', error: String((error as Error)?.stack ?? error) }));
      const body = { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } };
      // A body over the limit: the answer first, then the close, once the rest of the body was read.
      if (e instanceof BodyTooLarge && !res.headersSent) replyThenClose(res, status, body, e.drained);
      else reply(res, status, body);
    });
  });
  applyConnectionTimeouts(server);
  // A revoked or unknown certificate is refused at the handshake, before any request.
  server.on('secureConnection', (socket: TLSSocket) => {
    if (!clusterOf(socket)) socket.destroy();
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const who = clusterOf(req.socket as TLSSocket);
    if (!who) throw new CoreError('certificate_refused', 'this client certificate is unknown or revoked');
    const decision = throttle.take(who.serial);
    if (!decision.ok) {
      if (decision.first)
        console.warn(JSON.stringify({ level: 'warn', event: 'gateway.rate_limited', cluster_id: who.clusterId, host_id: who.hostId }));
      const body = { error: { code: 'rate_limited', message: `too many requests from this agent; retry in ${decision.retryAfterS} s` } };
      return reply(res, statusOf('rate_limited'), body, { 'Retry-After': String(decision.retryAfterS) });
    }
    const url = new URL(req.url ?? '/', 'https://gateway');
    const method = String(req.method);
    const found = GATEWAY_ROUTES.find(method, url.pathname);
    const { route } = found;
    const miss = (): CoreError => GATEWAY_ROUTES.miss(method, url.pathname, found.route === undefined && found.pathKnown);
    const readJsonBody = (): Promise<unknown> => readJson(req);
    if ((route?.agent ?? agentOfPath(url.pathname)) === 'node') {
      const hostId = who.hostId;
      if (!hostId || !opts.hosts) throw new CoreError('forbidden', 'the node-agent routes serve node agents (a host certificate) only');
      const hosts = opts.hosts;
      const host = tables.hosts.get(hostId);
      if (!host) throw new CoreError('certificate_refused', 'the host of this certificate was removed');
      contacts.hostAgentSeen(host, {
        agent_version: header(req, AGENT_HEADERS.version)?.slice(0, 64) ?? null,
        certificate_serial: who.serial,
      });
      if (route?.agent !== 'node') throw miss();
      const poll = (waitS: number): Promise<unknown[]> =>
        nextCommands(
          `host:${hostId}`,
          (live) => hosts.deliver(hostId, redeliverAfterS, live),
          () => hosts.nextWakeup(hostId),
          waitS,
          req,
          who,
        );
      const answer = await route.run(
        { hostId, hosts, query: url.searchParams, longPollMaxS, poll, renewCertificate: (csr) => renewCertificate(who.serial, csr) },
        readJsonBody,
      );
      return reply(res, answer.status, answer.body);
    }
    if (who.hostId)
      throw new CoreError('forbidden', `a node agent's certificate is served on ${Object.values(NODE_AGENT_PATHS).join(', ')} only`);
    if (route?.agent !== 'cluster') throw miss();
    const replica = header(req, AGENT_HEADERS.replica);
    const seen = (leader: boolean): void =>
      contacts.clusterAgentSeen(who.clusterId, {
        agent_version: header(req, AGENT_HEADERS.version) ?? null,
        leader_replica: leader ? (replica ?? null) : null,
        certificate_serial: who.serial,
      });
    const poll = (waitS: number): Promise<unknown[]> =>
      nextCommands(
        who.clusterId,
        (live) => commands.deliver(who.clusterId, redeliverAfterS, live),
        () => tables.commands.nextWakeup(who.clusterId),
        waitS,
        req,
        who,
      );
    const answer = await route.run(
      {
        clusterId: who.clusterId,
        seen,
        commands,
        contacts,
        query: url.searchParams,
        longPollMaxS,
        poll,
        renewCertificate: (csr) => renewCertificate(who.serial, csr),
      },
      readJsonBody,
    );
    return reply(res, answer.status, answer.body);
  }

  /**
   * A long poll: the due commands at once, else held until one is queued, one is due again, or the wait ends.
   * The certificate is judged again at every delivery, inside its transaction: a revocation committed while the
   * poll was held (by this process or another) ends the poll with certificate_refused and hands it nothing.
   */
  function nextCommands(
    key: string,
    deliver: (live: () => boolean) => unknown[],
    nextWakeup: () => string | undefined,
    waitS: number,
    req: IncomingMessage,
    who: { clusterId: string; serial: string },
  ): Promise<unknown[]> {
    const live = (): boolean => {
      const record = tables.keys.certificate(who.serial);
      return record !== undefined && record.revoked_at === null;
    };
    const first = deliver(live);
    if (first.length > 0 || waitS === 0) return Promise.resolve(first);
    return new Promise((resolve, reject) => {
      let done = false;
      const end = (): void => {
        done = true;
        clearTimeout(timer);
        remove();
      };
      const finish = (list: unknown[]): void => {
        if (done) return;
        end();
        resolve(list);
      };
      const refuse = (error: unknown): void => {
        if (done) return;
        end();
        // The connection goes with the poll: a revoked certificate keeps no socket open here.
        reject(error);
        // After the refusal is written (the rejection is answered in microtasks, before this runs).
        setImmediate(() => req.socket.end());
      };
      const check = (): void => {
        if (done) return;
        try {
          const list = deliver(live);
          if (list.length > 0) finish(list);
        } catch (error) {
          refuse(error);
        }
      };
      // Woken by news of this agent (its identity re-issued, among others): a revoked certificate's poll ends at
      // once rather than at the next command or the end of the wait.
      const revalidate = (): void => {
        if (!done && !live()) refuse(new CoreError('certificate_refused', 'this client certificate was revoked'));
      };
      const remove = polls.add({ clusterId: key, wake: check, revalidate });
      // One timer a held poll (thousands are held): first at the redelivery of a delivered, unacknowledged
      // command (due again after redeliverAfterS) when that comes before the end of the wait, then at the end.
      // Monotonic: a wall clock stepped back (NTP) would hold the poll past the agent's own timeout.
      const endAt = performance.now() + waitS * 1000;
      const oldest = nextWakeup();
      const dueIn = oldest ? new Date(oldest).getTime() + redeliverAfterS * 1000 - clock.now().getTime() + 50 : Infinity;
      const onTimer = (): void => {
        if (performance.now() >= endAt) return finish([]);
        check();
        if (!done) timer = setTimeout(onTimer, endAt - performance.now());
      };
      let timer = setTimeout(onTimer, Math.max(0, Math.min(dueIn, waitS * 1000)));
      req.on('close', () => finish([]));
    });
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        server,
        port,
        url: `https://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
        heldPolls: () => polls.size,
        reloadTls: (tls) => server.setSecureContext(secureContext(tls)),
        close: () =>
          new Promise<void>((done) => {
            unsubscribe();
            unsubscribeHosts?.();
            unsubscribeEvents();
            polls.close();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.slice(0, 253);
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/** The JSON body of an agent's request; BodyTooLarge and InvalidJsonError are CoreErrors with their own codes. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  return parseJsonBody(await readBody(req, GATEWAY_MAX_BODY));
}
