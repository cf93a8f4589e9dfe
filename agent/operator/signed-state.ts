// What the operator trusts: the desired state the agent stored in its state ConfigMap, re-verified here with the
// manager public key and signed config from the identity Secret. Nothing else the agent wrote is believed.
// The kubelet mounts only those two keys of that Secret (the pod spec projects them), so the operator's
// ServiceAccount reads no Secret at all and the agent's tls.key never reaches the operator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { verifyDocument } from '../../main/wire/envelope';
import { nodeEd25519 } from '../../main/wire/ed25519-node';
import { keyId } from '../../main/wire/encoding';
import { publicKeyFromPem } from '../../main/wire/public-key-pem';
import {
  AGENT_IDENTITY_SECRET_NAME as AGENT_IDENTITY_SECRET,
  AGENT_STATE_NAME as AGENT_STATE_CONFIGMAP,
  type AgentConfigBody,
  type DesiredStateBody,
} from '../../main/wire/protocol';

export type SignedState =
  | { ok: true; desired: DesiredStateBody }
  | { ok: false; reason: 'ManagerKeyMissing' | 'DesiredStateMissing' | 'SignatureInvalid'; message: string };

const httpCode = (e: unknown): number | undefined => {
  const c = (e as { code?: unknown })?.code;
  return typeof c === 'number' ? c : undefined;
};

/** Verifies the state from the texts read; pure, so each refusal is tested without a cluster. */
export function verifySignedState(
  managerPem: string | undefined,
  configJson: string | undefined,
  stateJson: string | undefined,
): SignedState {
  if (!managerPem || !configJson)
    return { ok: false, reason: 'ManagerKeyMissing', message: `${AGENT_IDENTITY_SECRET} holds no manager.pem or config.json` };
  let key: Uint8Array;
  try {
    key = publicKeyFromPem(managerPem);
  } catch (error) {
    return { ok: false, reason: 'ManagerKeyMissing', message: `manager.pem is not an Ed25519 public key: ${(error as Error).message}` };
  }
  const trustedKeys = new Map([[keyId(key), key]]);
  const config = verifyDocument(configJson, { impl: nodeEd25519, trustedKeys, expectedType: 'agent-config' });
  if (!config.ok) return { ok: false, reason: 'SignatureInvalid', message: `the agent config does not verify (${config.code})` };
  const body = config.payload as unknown as AgentConfigBody;
  let doc: unknown;
  try {
    doc = (JSON.parse(stateJson ?? '{}') as { desired_state?: unknown }).desired_state;
  } catch {
    return { ok: false, reason: 'DesiredStateMissing', message: `${AGENT_STATE_CONFIGMAP} is not JSON` };
  }
  if (!doc) return { ok: false, reason: 'DesiredStateMissing', message: 'the agent has stored no approved desired state yet' };
  const v = verifyDocument(doc, {
    impl: nodeEd25519,
    trustedKeys,
    expectedType: 'desired-state',
    expectedTarget: body.target,
    expectedTenant: body.tenant,
    clockSkewSeconds: body.clock_skew_s,
  });
  if (!v.ok) return { ok: false, reason: 'SignatureInvalid', message: `the stored desired state does not verify (${v.code})` };
  return { ok: true, desired: v.payload as unknown as DesiredStateBody };
}

/** The folder where the pod spec mounts manager.pem and config.json of the identity Secret. */
export const OPERATOR_IDENTITY_MOUNT = '/etc/navin-operator';

/** A mounted file, or undefined while the Secret (optional in the pod spec) is not there. */
function readMounted(dir: string, name: string): string | undefined {
  try {
    return readFileSync(join(dir, name), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads the mounted identity files (read at each pass: the kubelet refreshes them) and the state ConfigMap, then verifies. */
export async function readSignedState(kc: KubeConfig, namespace: string, identityDir: string): Promise<SignedState> {
  const core = kc.makeApiClient(CoreV1Api);
  let state: string | undefined;
  try {
    state = (await core.readNamespacedConfigMap({ name: AGENT_STATE_CONFIGMAP, namespace })).data?.['state.json'];
  } catch (error) {
    if (httpCode(error) !== 404) throw error;
  }
  return verifySignedState(readMounted(identityDir, 'manager.pem'), readMounted(identityDir, 'config.json'), state);
}
