// Web routes of a component, one per domain its signed config declares (`config.routes`): an Ingress
// `navin-route-<site>` or, in the Gateway API mode, an HTTPRoute of that name; and per domain whether it is
// routed or, if not, why. TLS modes: cert-manager (an issuer signs navin-tls-<site>), secret (the owner's own
// certificate in navin-tls-<site>: routed at once, the operator reading no Secret to see whether it is there yet),
// none, gateway.
import type { KubernetesObject } from '@kubernetes/client-node';
import { labelsFor, ownerReference, portsOf, type ManagedComponentObject } from './workloads';

export type TlsMode = 'cert-manager' | 'secret' | 'none' | 'gateway';

export interface RouteSpec {
  site: string;
  host: string;
  tls: TlsMode;
  /** cert-manager: the Issuer (or ClusterIssuer with `cluster_issuer`). */
  issuer?: string;
  cluster_issuer?: boolean;
  /** gateway: the Gateway to attach to (default `navin-gateway` in the component's namespace). */
  gateway?: { name: string; namespace?: string };
  /** The Service port's name (default the component's first port). */
  port?: string;
}

export interface RouteStatus {
  site: string;
  host: string;
  routed: boolean;
  reason: string;
  message: string;
}

/** What the cluster holds that a route depends on, read by the caller. */
export interface RouteFacts {
  /** cert-manager's Certificate of that name is Ready (its Secret written). */
  certificateReady(name: string): boolean;
  gatewayApi: boolean;
  certManager: boolean;
}

const SITE = /^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$/;
export const DEFAULT_GATEWAY = 'navin-gateway';
export const routeName = (site: string): string => `navin-route-${site}`;
export const tlsSecretName = (site: string): string => `navin-tls-${site}`;

/** The routes the signed config declares; a malformed entry is reported, never guessed. */
export function routesOf(mc: ManagedComponentObject): { routes: RouteSpec[]; invalid: RouteStatus[] } {
  const raw = mc.spec.config?.routes;
  const routes: RouteSpec[] = [];
  const invalid: RouteStatus[] = [];
  for (const r of Array.isArray(raw) ? (raw as Partial<RouteSpec>[]) : []) {
    const site = String(r?.site ?? '');
    const host = String(r?.host ?? '');
    if (!SITE.test(site) || !host || !['cert-manager', 'secret', 'none', 'gateway'].includes(String(r.tls)))
      invalid.push({
        site,
        host,
        routed: false,
        reason: 'RouteInvalid',
        message: 'a route needs a site (DNS label), a host and a TLS mode',
      });
    else routes.push(r as RouteSpec);
  }
  return { routes, invalid };
}

function backendPort(mc: ManagedComponentObject, r: RouteSpec): number {
  const ports = portsOf(mc.spec);
  return (r.port ? ports[r.port] : undefined) ?? Object.values(ports)[0] ?? 80;
}

function meta(mc: ManagedComponentObject, r: RouteSpec, annotations?: Record<string, string>) {
  return {
    name: routeName(r.site),
    namespace: mc.metadata.namespace,
    labels: { ...labelsFor(mc), 'platform.navin.ai/site': r.site },
    ...(annotations ? { annotations } : {}),
    ownerReferences: [ownerReference(mc)],
  };
}

/** The object for one route, or null when it must not exist yet; with its routed status. */
export function routeFor(
  mc: ManagedComponentObject,
  r: RouteSpec,
  facts: RouteFacts,
): { object: KubernetesObject | null; status: RouteStatus } {
  const port = backendPort(mc, r);
  const st = (routed: boolean, reason: string, message: string): RouteStatus => ({ site: r.site, host: r.host, routed, reason, message });
  if (r.tls === 'gateway') {
    if (!facts.gatewayApi) return { object: null, status: st(false, 'GatewayApiMissing', 'the Gateway API (HTTPRoute) is not installed') };
    const gw = r.gateway ?? { name: DEFAULT_GATEWAY };
    return {
      object: {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'HTTPRoute',
        metadata: meta(mc, r),
        spec: {
          parentRefs: [{ name: gw.name, ...(gw.namespace ? { namespace: gw.namespace } : {}) }],
          hostnames: [r.host],
          rules: [{ backendRefs: [{ name: mc.metadata.name, port }] }],
        },
      } as KubernetesObject,
      status: st(true, 'Routed', `HTTPRoute to Gateway ${gw.name}`),
    };
  }
  const secret = tlsSecretName(r.site);
  if (r.tls === 'cert-manager' && !r.issuer)
    return { object: null, status: st(false, 'IssuerMissing', 'the cert-manager mode needs an issuer') };
  const annotations =
    r.tls === 'cert-manager' ? { [r.cluster_issuer ? 'cert-manager.io/cluster-issuer' : 'cert-manager.io/issuer']: r.issuer! } : undefined;
  const ingress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(mc, r, annotations),
    spec: {
      ...(r.tls === 'none' ? {} : { tls: [{ hosts: [r.host], secretName: secret }] }),
      rules: [
        {
          host: r.host,
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: mc.metadata.name, port: { number: port } } } }] },
        },
      ],
    },
  } as KubernetesObject;
  if (r.tls === 'cert-manager' && !facts.certManager)
    return {
      object: ingress,
      status: st(false, 'CertManagerMissing', 'cert-manager is not installed: nothing will issue the certificate'),
    };
  if (r.tls === 'cert-manager' && !facts.certificateReady(secret))
    return { object: ingress, status: st(false, 'CertificatePending', `cert-manager has not yet written ${secret}`) };
  // The owner's Secret is not looked at: reading it would need a right on every Secret of the namespace.
  const from = r.tls === 'secret' ? `the owner's Secret ${secret} (the ingress controller serves it once it exists)` : secret;
  return { object: ingress, status: st(true, 'Routed', r.tls === 'none' ? 'routed without TLS' : `routed with TLS from ${from}`) };
}
