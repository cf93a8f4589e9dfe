// The trust update of a manager CA rotation (wire/ca-trust.ts), for either agent: the CAs of the signed command
// become the agent's ca.crt (written beside, flushed, renamed over) and every later gateway call trusts them; asked
// to, the agent renews its client certificate at once under the issuing CA. Added to an agent's executor by
// withCaTrust, so that the cluster and node executors keep only their own operations.
import { X509Certificate } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { caBundle, caTrustProblem, OP_CA_TRUST, type CaTrustArgs, type CaTrustResult } from '../main/wire/ca-trust';
import type { RenewalOutcome } from './certificate-renewer';
import { ExecutionError, type Executor, type Prepared } from './commands';
import type { CertificateChannel } from './gateway-client';
import type { CommonConfig, Identity } from './identity';
import { log } from './log';
import type { AgentStateBase } from './state';

export interface CaTrustOptions {
  identity: Identity<CommonConfig>;
  gateway: Pick<CertificateChannel, 'useCertificate'>;
  /** The identity folder whose ca.crt is replaced; without one the agent could not keep the trust, and refuses. */
  identityDir: string | undefined;
  /** The agent's renewer, asked to renew now (read when the command runs: it is built after the executor). */
  renew: () => Promise<RenewalOutcome> | undefined;
}

/** The options of an agent that keeps its identity in `identityDir` and renews with `renewer` (when it has one). */
export function caTrustOptions(
  identity: Identity<CommonConfig>,
  gateway: Pick<CertificateChannel, 'useCertificate'>,
  identityDir: string | undefined,
  renewer: () => { check(force: boolean): Promise<RenewalOutcome> } | undefined,
): CaTrustOptions {
  return { identity, gateway, identityDir, renew: () => renewer()?.check(true) };
}

/** Writes `text` to dir/ca.crt as one step: a stop halfway leaves the previous file whole. */
function replaceCaFile(dir: string, text: string): void {
  const next = join(dir, 'ca.crt.next');
  const fd = openSync(next, 'w', 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(next, join(dir, 'ca.crt'));
}

/** Applies one trust update: ca.crt and the gateway client first, then the renewal asked for. */
export async function applyCaTrust(o: CaTrustOptions, args: CaTrustArgs): Promise<CaTrustResult> {
  if (!o.identityDir) throw new ExecutionError('identity_unwritable', 'this agent has no identity folder to keep a new trust in');
  // Each must be a CA certificate Node reads, or the gateway client would trust nothing after the switch.
  for (const pem of args.ca_pems) {
    if (!new X509Certificate(pem).ca) throw new ExecutionError('args_invalid', 'a certificate of ca_pems is not a CA certificate');
  }
  const bundle = caBundle(args.ca_pems);
  try {
    replaceCaFile(o.identityDir, bundle);
  } catch (error) {
    throw new ExecutionError('identity_unwritable', `cannot write ca.crt in the identity folder: ${(error as Error).message}`);
  }
  const changed = o.identity.caPem !== bundle;
  o.identity.caPem = bundle;
  // The client's TLS agent reads the identity's CAs when it is made: same certificate, new trust.
  if (changed) o.gateway.useCertificate(o.identity.certPem, o.identity.keyPem);
  log('ca.trust_updated', { rotation_id: args.rotation_id, trusted: args.ca_pems.length, renew: args.renew });
  const renewal = args.renew ? ((await o.renew()) ?? 'not_configured') : null;
  if (renewal !== null && renewal !== 'renewed')
    throw new ExecutionError('renewal_failed', `the trust is updated but the certificate was not renewed (${renewal})`, {
      trusted: args.ca_pems.length,
      renewal,
    });
  return { trusted: args.ca_pems.length, renewal };
}

/** `inner` with the trust update added: the same operations, state, claims and receipts, plus ca.trust. */
export function withCaTrust<S extends AgentStateBase>(inner: Executor<S>, o: CaTrustOptions): Executor<S> {
  return {
    operations: [...inner.operations, OP_CA_TRUST],
    sensitive: inner.sensitive,
    prepare: (commandId, op, args): Prepared<S> => {
      if (op !== OP_CA_TRUST) return inner.prepare(commandId, op, args);
      const problem = caTrustProblem(args);
      return problem ? { ok: false, code: 'args_invalid', message: problem } : { ok: true };
    },
    execute: (commandId, op, args) => (op === OP_CA_TRUST ? applyCaTrust(o, args as CaTrustArgs) : inner.execute(commandId, op, args)),
    settle: inner.settle && ((s, commandId) => inner.settle!(s, commandId)),
    inProgress: inner.inProgress && ((commandId) => inner.inProgress!(commandId)),
    afterExecuted: (commandId, op, receipt) => {
      if (op !== OP_CA_TRUST) inner.afterExecuted?.(commandId, op, receipt);
    },
  };
}
