// The headless console's TLS certificate, for the listening address plus localhost, kept in <data dir>/tls.
import { join } from 'node:path';
import type { Manager } from '../core/manager';
import { serverTls, type TlsMaterial } from '../core/keys/server-tls';

export type { TlsMaterial };

export function consoleTls(manager: Manager, host: string): TlsMaterial {
  const names = [...new Set([host, 'localhost', '127.0.0.1'].filter((n) => n !== '0.0.0.0' && n !== '::'))];
  return serverTls(manager.ca, manager.protector, manager.clock, 'console', join(manager.dataDir, 'tls'), names);
}
