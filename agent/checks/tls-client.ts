// What a check needs to speak TLS to a service: the files its tls block names, read on the agent's host, and the
// node:tls options every client of a check is given (that CA as the only anchor, the client certificate when the
// service demands one), so the https, gRPC and NATS clients all trust the same thing.
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { checkServerIdentity, type ConnectionOptions, type PeerCertificate } from 'node:tls';
import type { CheckTls } from '../../main/wire/service-checks';
import { CheckFailure, errorMessage } from './outcome';

export interface LoadedTls {
  /** The params as declared, for the method's words. */
  files: CheckTls;
  ca: string;
  cert?: string;
  key?: string;
  serverName?: string;
}

async function readPem(what: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CheckFailure('params_invalid', `cannot read ${what} ${path}: ${errorMessage(error)}`);
  }
}

/** Reads the block's files; one that cannot be read fails the check as params_invalid, naming it. */
export async function loadTls(files: CheckTls): Promise<LoadedTls> {
  const [ca, cert, key] = await Promise.all([
    readPem('ca_file', files.ca_file),
    files.cert_file ? readPem('cert_file', files.cert_file) : undefined,
    files.key_file ? readPem('key_file', files.key_file) : undefined,
  ]);
  return { files, ca, ...(cert && key ? { cert, key } : {}), ...(files.server_name ? { serverName: files.server_name } : {}) };
}

/** The name the server's certificate must carry: server_name, else the address dialled (an IP is matched to IP SANs). */
export const nameFor = (t: LoadedTls, host: string): string => t.serverName ?? host.replace(/^\[(.*)\]$/, '$1');

/**
 * node:tls options for a connection to host: the CA file as the only trust anchor (the system's are not
 * consulted), the certificate checked for nameFor(host), the client certificate when there is one. Without a
 * host (a client that dials several servers itself), Node checks the name of each server dialled unless the
 * block names one. The server is always verified: nothing here turns verification off.
 */
export function tlsOptions(t: LoadedTls, host?: string): ConnectionOptions {
  const name = host === undefined ? t.serverName : nameFor(t, host);
  return {
    ca: t.ca,
    ...(t.cert && t.key ? { cert: t.cert, key: t.key } : {}),
    minVersion: 'TLSv1.2',
    ...(name === undefined
      ? {}
      : {
          // SNI carries names only (RFC 6066): an IP is never sent as a server name.
          ...(isIP(name) ? {} : { servername: name }),
          checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(name, cert),
        }),
  };
}

/** What the method says of the trust a check used. */
export function trustWords(t: CheckTls | undefined): string {
  if (!t) return '';
  const client = t.cert_file ? `, presenting the client certificate ${t.cert_file}` : '';
  const name = t.server_name ? ` for the name ${t.server_name}` : '';
  return ` over TLS, the server's certificate verified against ${t.ca_file} only${name}${client}`;
}
