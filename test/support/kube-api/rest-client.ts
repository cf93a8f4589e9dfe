// A raw REST call through a KubeConfig's TLS and credentials (node:https), for requests the typed APIs reshape.
import { request } from 'node:https';
import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A non-2xx answer, with the Status body the server sent (like client-node's ApiException: code and body). */
export class KubeRequestError extends Error {
  constructor(
    readonly code: number,
    readonly body: unknown,
    what: string,
  ) {
    super(
      `${what}: HTTP ${code}: ${typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : JSON.stringify(body)}`,
    );
  }
}

export const kubeRequest = async (
  kc: KubeConfig,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): Promise<RawResponse> => {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(cluster.server.replace(/\/$/, '') + path);
  const opts: RequestOptions = { method, headers: { Accept: 'application/json', ...headers } };
  await kc.applyToHTTPSOptions(opts);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { ...opts, headers: { ...opts.headers, ...(payload !== undefined ? { 'Content-Type': contentType } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
};

/** kubeRequest that parses JSON and throws KubeRequestError on a non-2xx answer. */
export const kubeJson = async <T>(kc: KubeConfig, method: string, path: string, body?: unknown, contentType?: string): Promise<T> => {
  const r = await kubeRequest(kc, method, path, body, contentType);
  let parsed: unknown = r.text;
  try {
    parsed = JSON.parse(r.text);
  } catch {
    // not JSON: keep the text
  }
  if (r.status < 200 || r.status > 299) throw new KubeRequestError(r.status, parsed, `${method} ${path}`);
  return parsed as T;
};
