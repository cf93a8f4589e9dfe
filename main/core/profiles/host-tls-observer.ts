// Observes the TLS of a hosts cluster's service endpoints for the profile rules: each host's own node agent
// handshakes with its endpoints (the manager may have no route to the hosts' network), by read-only plans of one
// tls.handshake check, issued at once and awaited for a bounded time; an endpoint left unanswered is said so.
import type { CatalogDescriptor } from '../catalog/catalog-schema';
import type { PlanArgs } from '../../wire/plan';
import {
  handshakePlan,
  hostEndpoints,
  outcomeOf,
  type EndpointObservation,
  type HostEndpoint,
  type InstalledService,
} from './host-tls-endpoints';

/** How long the rules wait for the agents' answers; past it an endpoint is "not observed" (never a pass). */
export const HOST_TLS_WAIT_MS = 20_000;
/** Per handshake, on the host. */
const HANDSHAKE_TIMEOUT_MS = 5_000;
const ACTOR = 'profile-rules';

export interface HostTlsObserverDeps {
  installed(clusterId: string): InstalledService[];
  host(id: string): { name: string; address: string } | undefined;
  descriptor(service: string): CatalogDescriptor | undefined;
  /** Signs and queues a plan that only checks: no four eyes, as a drift scan or a journal read. */
  issuePlan(hostId: string, args: PlanArgs, actor: string): { id: string };
  waitEnded(commandIds: string[], timeoutMs: number): Promise<void>;
  command(id: string): { state: string; code?: string | null; result: unknown } | undefined;
  waitMs?: number;
}

export type HostTlsObserve = (clusterId: string, onlyTlsCapable: boolean) => Promise<EndpointObservation[]>;

/** The observe function of the rules: the endpoints of the cluster's installed services, each handshaken from its host. */
export function hostTlsObserver(d: HostTlsObserverDeps): HostTlsObserve {
  return async (clusterId, onlyTlsCapable) => {
    const endpoints = hostEndpoints(d.installed(clusterId), d.host, d.descriptor, onlyTlsCapable);
    const observed = await wave(d, endpoints, false);
    // A host without the service's TLS files: a second, bare handshake tells a plaintext port from a TLS one.
    const bare = observed.filter((o) => o.outcome?.error?.code === 'params_invalid');
    const again = bare.length
      ? await wave(
          d,
          bare.map((o) => o.endpoint),
          true,
        )
      : [];
    return observed.map((o) => {
      const i = bare.indexOf(o);
      return i < 0 ? o : { ...o, bare: again[i]!.outcome };
    });
  };
}

async function wave(d: HostTlsObserverDeps, endpoints: HostEndpoint[], bare: boolean): Promise<EndpointObservation[]> {
  const issued = endpoints.map((endpoint) => issue(d, endpoint, bare));
  await d.waitEnded(
    issued.flatMap((i) => (i.command ? [i.command] : [])),
    d.waitMs ?? HOST_TLS_WAIT_MS,
  );
  return issued.map(({ endpoint, command, refused }): EndpointObservation => {
    if (!command) return { endpoint, outcome: null, missing: refused };
    const c = d.command(command);
    const outcome = c ? outcomeOf(c.result) : null;
    if (outcome) return { endpoint, outcome };
    const ended = c && c.state !== 'queued' && c.state !== 'delivered';
    return {
      endpoint,
      outcome: null,
      missing: ended
        ? `the plan ended ${c.state}${c.code ? ` (${c.code})` : ''} without a handshake`
        : `no answer from the agent of ${endpoint.host_name} within ${Math.round((d.waitMs ?? HOST_TLS_WAIT_MS) / 1000)} s`,
    };
  });
}

function issue(
  d: HostTlsObserverDeps,
  endpoint: HostEndpoint,
  bare: boolean,
): { endpoint: HostEndpoint; command?: string; refused?: string } {
  try {
    return { endpoint, command: d.issuePlan(endpoint.host_id, handshakePlan(endpoint, HANDSHAKE_TIMEOUT_MS, bare), ACTOR).id };
  } catch (error) {
    // A host that cannot be sent a plan (removed meanwhile, a plan refused) is one endpoint not observed, not the rule's end.
    return { endpoint, refused: `no plan could be sent to ${endpoint.host_name}: ${(error as Error).message}` };
  }
}
