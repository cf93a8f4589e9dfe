// An agent's identity, read from its identity folder (the cluster agent's mounted Secret
// navin-cluster-agent-identity, the node agent's /etc/navin-node-agent): its signed config (refused at start if
// it does not verify against manager.pem), client certificate and key (a renewal's switch finished first), and
// the manager CA.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyDocument } from '../main/wire/envelope';
import { nodeEd25519 } from '../main/wire/ed25519-node';
import { keyId, fromBase64url } from '../main/wire/encoding';
import { publicKeyFromPem } from '../main/wire/public-key-pem';
import type { AgentConfigBody, AgentConfigCommon } from '../main/wire/protocol';
import { finishCertificateSwitch } from './certificate-files';

export class AgentStartError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What both agents read from their signed config. */
export type CommonConfig = AgentConfigCommon;

export interface Identity<C extends CommonConfig = AgentConfigBody> {
  config: C;
  trustedKeys: Map<string, Uint8Array>;
  certPem: string;
  keyPem: string;
  caPem: string;
}

function read(dir: string, file: string): string {
  try {
    return readFileSync(join(dir, file), 'utf8');
  } catch (error) {
    throw new AgentStartError(
      'identity_missing',
      `cannot read ${file} from ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** `accept` refuses a config meant for another kind of agent (its message says why). */
export function loadIdentity<C extends CommonConfig = AgentConfigBody>(
  dir: string,
  accept: (c: C) => string | null = () => null,
): Identity<C> {
  const configText = read(dir, 'config.json');
  let managerKey: Uint8Array;
  try {
    managerKey = publicKeyFromPem(read(dir, 'manager.pem'));
  } catch (error) {
    if (error instanceof AgentStartError) throw error;
    throw new AgentStartError('config_invalid', `manager.pem is not an Ed25519 public key: ${(error as Error).message}`);
  }
  const managerKeyId = keyId(managerKey);
  const verdict = verifyDocument(configText, {
    impl: nodeEd25519,
    trustedKeys: new Map([[managerKeyId, managerKey]]),
    expectedType: 'agent-config',
  });
  if (!verdict.ok)
    throw new AgentStartError(
      'config_invalid',
      `the signed config does not verify against manager.pem (${verdict.code}): it was modified or signed by another manager`,
    );
  const config = verdict.payload as unknown as C;
  const wrong = accept(config);
  if (wrong) throw new AgentStartError('config_invalid', wrong);
  if (!Array.isArray(config.trusted_key_ids) || !config.trusted_key_ids.includes(managerKeyId))
    throw new AgentStartError('config_invalid', 'the signed config does not list the key of manager.pem among its trusted keys');
  // Keys trusted for commands: those the signed config lists, with their public keys carried in it.
  const trustedKeys = new Map<string, Uint8Array>([[managerKeyId, managerKey]]);
  for (const [id, pub] of Object.entries(config.trusted_keys ?? {})) {
    const raw = fromBase64url(pub);
    if (config.trusted_key_ids.includes(id) && raw.length === 32 && keyId(raw) === id) trustedKeys.set(id, raw);
  }
  try {
    finishCertificateSwitch(dir);
  } catch (error) {
    throw new AgentStartError(
      'identity_missing',
      `cannot finish the switch to a renewed certificate in ${dir}: ${(error as Error).message}`,
    );
  }
  return { config, trustedKeys, certPem: read(dir, 'tls.crt'), keyPem: read(dir, 'tls.key'), caPem: read(dir, 'ca.crt') };
}
