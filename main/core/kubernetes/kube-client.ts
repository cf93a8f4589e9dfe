// The manager's one owner of @kubernetes/client-node: builds clients from a registered cluster's access
// (server, CA, token), and turns client failures into precise, stable error codes.
import { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { CoreError } from '../errors';
import { errorCode, networkFailure } from '../net/network-errors';
import { isPlainObject } from '../../wire/payloads';

export interface ClusterAccess {
  server: string;
  /** PEM of the API server's CA; absent means the system trust store. */
  caPem?: string;
  token: string;
  tlsServerName?: string;
}

export class KubeError extends CoreError {}

interface KubeconfigFile {
  'current-context'?: string;
  clusters?: {
    name: string;
    cluster: {
      server?: string;
      'certificate-authority-data'?: string;
      'certificate-authority'?: string;
      'tls-server-name'?: string;
      'insecure-skip-tls-verify'?: boolean;
    };
  }[];
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  users?: { name: string; user: { token?: string } & Record<string, unknown> }[];
}

/** Reads the parts we use from a kubeconfig; refuses what an air-gapped import must not rely on. */
export function parseKubeconfig(text: string): ClusterAccess {
  let doc: KubeconfigFile;
  try {
    doc = parse(text) as KubeconfigFile;
  } catch (error) {
    throw new KubeError('kubeconfig_invalid', `the kubeconfig is not valid YAML: ${(error as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.clusters) || !Array.isArray(doc.users))
    throw new KubeError('kubeconfig_invalid', 'the kubeconfig has no clusters or users');
  // Only the fields used are read, and each is checked for its type first: a kubeconfig is operator input.
  const contexts = doc.contexts === undefined || doc.contexts === null ? [] : doc.contexts;
  if (!Array.isArray(contexts)) throw new KubeError('kubeconfig_invalid', 'contexts is a list');
  const named = <T>(list: unknown[], what: string): (T & { name?: unknown })[] => {
    if (!list.every((e) => isPlainObject(e))) throw new KubeError('kubeconfig_invalid', `each of ${what} is a mapping`);
    return list as (T & { name?: unknown })[];
  };
  const ctxs = named<{ context?: unknown }>(contexts, 'contexts');
  const clusters = named<{ cluster?: unknown }>(doc.clusters, 'clusters');
  const users = named<{ user?: unknown }>(doc.users, 'users');
  const contextName = doc['current-context'] ?? ctxs[0]?.name;
  const found = ctxs.find((c) => c.name === contextName)?.context;
  if (found !== undefined && !isPlainObject(found)) throw new KubeError('kubeconfig_invalid', 'a context is a mapping');
  const context = found as { cluster?: unknown; user?: unknown } | undefined;
  const clusterEntry = (context ? clusters.find((c) => c.name === context.cluster) : clusters[0])?.cluster;
  const userEntry = (context ? users.find((u) => u.name === context.user) : users[0])?.user;
  if (clusterEntry !== undefined && !isPlainObject(clusterEntry)) throw new KubeError('kubeconfig_invalid', 'a cluster entry is a mapping');
  if (userEntry !== undefined && !isPlainObject(userEntry)) throw new KubeError('kubeconfig_invalid', 'a user entry is a mapping');
  const cluster = clusterEntry as NonNullable<KubeconfigFile['clusters']>[number]['cluster'] | undefined;
  const user = userEntry as { token?: unknown } | undefined;
  for (const field of ['server', 'certificate-authority-data', 'tls-server-name', 'certificate-authority'] as const)
    if (cluster?.[field] !== undefined && cluster[field] !== null && typeof cluster[field] !== 'string')
      throw new KubeError('kubeconfig_invalid', `the cluster's ${field} is a string`);
  if (user?.token !== undefined && user.token !== null && typeof user.token !== 'string')
    throw new KubeError('kubeconfig_invalid', "the user's token is a string");
  // Sent as an HTTP header: a control character would be refused there, with the token in the message.
  if (typeof user?.token === 'string' && [...user.token].some((c) => c < ' ' || c === '\x7f'))
    throw new KubeError('kubeconfig_invalid', "the user's token holds a control character (a line break?)");
  if (!cluster?.server) throw new KubeError('kubeconfig_invalid', 'the kubeconfig names no API server');
  if (!/^https:\/\//.test(cluster.server))
    throw new KubeError('kubeconfig_invalid', `the API server must be https://, not ${cluster.server}`);
  if (cluster['insecure-skip-tls-verify'])
    throw new KubeError('kubeconfig_invalid', 'insecure-skip-tls-verify is refused: give the API server CA (certificate-authority-data)');
  if (cluster['certificate-authority'])
    throw new KubeError('kubeconfig_invalid', 'embed the CA as certificate-authority-data instead of a file path');
  if (typeof user?.token !== 'string' || !user.token)
    throw new KubeError(
      'kubeconfig_no_token',
      'the kubeconfig holds no token: use the navin-import token (kubectl -n navin-platform create token navin-import)',
    );
  const access: ClusterAccess = { server: cluster.server.replace(/\/+$/, ''), token: user.token };
  if (cluster['certificate-authority-data']) access.caPem = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
  if (cluster['tls-server-name']) access.tlsServerName = cluster['tls-server-name'];
  return access;
}

export function kubeConfigFor(access: ClusterAccess): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'c',
        server: access.server,
        caData: access.caPem ? Buffer.from(access.caPem).toString('base64') : undefined,
        tlsServerName: access.tlsServerName,
        skipTLSVerify: false,
      },
    ],
    users: [{ name: 'u', token: access.token }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

/** HTTP status of a client-node ApiException, if the failure got an HTTP answer. */
export function httpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

export function statusMessage(error: unknown): string {
  const body = (error as { body?: unknown }).body;
  const parsed = typeof body === 'string' ? safeJson(body) : body;
  const message = (parsed as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : ((error as Error).message?.split('\n')[0] ?? String(error));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Maps a failed call to the API server onto one stable code with a message saying what to do. */
export function classifyKubeError(error: unknown, server: string): KubeError {
  const status = httpStatus(error);
  if (status === 401)
    return new KubeError(
      'token_refused',
      `the API server at ${server} refused the token (401): issue a fresh one with kubectl -n navin-platform create token navin-import`,
    );
  if (status === 403) return new KubeError('permission_missing', statusMessage(error));
  if (status !== undefined) return new KubeError('api_error', `the API server answered ${status}: ${statusMessage(error)}`);
  const code = errorCode(error);
  const failure = code ? networkFailure(code) : 'other';
  if (failure === 'tls_untrusted')
    return new KubeError(
      'tls_untrusted',
      `the API server's certificate at ${server} is not trusted (${code}): put the cluster CA in certificate-authority-data`,
    );
  if (failure === 'unreachable' || failure === 'dropped')
    return new KubeError('api_unreachable', `the API server at ${server} cannot be reached (${code})`);
  const message = (error as Error)?.message ?? String(error);
  if (/certificate|self[- ]signed|issuer/i.test(message))
    return new KubeError('tls_untrusted', `the API server's certificate at ${server} is not trusted: ${message}`);
  return new KubeError('api_unreachable', `the API server at ${server} cannot be reached: ${message}`);
}
