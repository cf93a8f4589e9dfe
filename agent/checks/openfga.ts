// OpenFGA's functional test with @openfga/sdk: a fresh store, a model, one tuple, a check that must be allowed
// and one that must be denied; the store is deleted even after a failure.
import axios from 'axios';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { OpenFgaClient, type WriteAuthorizationModelRequest } from '@openfga/sdk';
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { toHex } from '../../main/wire/encoding';
import { randomBytes } from '../../main/wire/random';
import { MAX_CHECK_ANSWER_BYTES, timeoutOf } from './http-call';
import { CheckFailure, runBody, type RunCheckOptions } from './outcome';

/** Stores of the functional test: one fresh store per run with this name prefix. */
export const OPENFGA_SMOKE_PREFIX = 'navin-smoke-';

/** type user; type document with `define viewer: [user]` (schema 1.1). */
export const OPENFGA_SMOKE_MODEL: WriteAuthorizationModelRequest = {
  schema_version: '1.1',
  type_definitions: [
    { type: 'user' },
    {
      type: 'document',
      relations: { viewer: { this: {} } },
      metadata: { relations: { viewer: { directly_related_user_types: [{ type: 'user' }] } } },
    },
  ],
};

// The SDK wraps a network failure in a FgaError that keeps only axios's message: tell them apart by it.
function sdkError(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  if (/timeout of \d+ms exceeded|ETIMEDOUT|ECONNABORTED/.test(message)) throw Object.assign(new Error(message), { name: 'TimeoutError' });
  if (/ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|socket hang up/.test(message))
    throw Object.assign(new Error(message), { code: 'ECONNREFUSED' });
  const api = error as { statusCode?: number; apiErrorMessage?: string; name?: string };
  if (api.statusCode)
    throw new CheckFailure('http_status', `${api.name ?? 'error'} HTTP ${api.statusCode}: ${api.apiErrorMessage ?? message}`);
  throw error;
}

export function openfgaCheck(p: CheckParams<'openfga.check'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const timeout = timeoutOf(p);
  const nonce = toHex(randomBytes(16));
  const name = `${OPENFGA_SMOKE_PREFIX}${nonce}`;
  const object = `document:${nonce}`;
  const allowed = `user:allowed-${nonce}`;
  const denied = `user:denied-${nonce}`;
  const method =
    `with ${p.url}: create a fresh store ${name}, write a model (user; document viewer: [user]), write the tuple ` +
    `${allowed} viewer ${object}, check it (must be allowed) and ${denied} (must be denied), then delete the store, even after a failure`;
  // Our own axios instance so every call is bounded by the check's timeout (the SDK's default is 10 s), no retries,
  // and never through a proxy of the environment (axios reads HTTP(S)_PROXY by default): the server directly.
  const http = axios.create({
    timeout,
    proxy: false,
    // Answers read to a cap, as every check's (http-call.ts).
    maxContentLength: MAX_CHECK_ANSWER_BYTES,
    httpAgent: new HttpAgent({ keepAlive: false }),
    httpsAgent: new HttpsAgent({ keepAlive: false }),
  });
  const fga = new OpenFgaClient({ apiUrl: p.url.replace(/\/+$/, ''), retryParams: { maxRetry: 0, minWaitInMs: 1 } }, http);
  return runBody(
    'openfga.check',
    method,
    options,
    async (run) => {
      run.evidence.store_name = name;
      run.evidence.nonce = nonce;
      let storeId: string | undefined;
      try {
        const store = await run.step(
          'create store',
          () => fga.createStore({ name }).catch(sdkError),
          (s) => `store ${s.id}`,
        );
        storeId = store.id;
        run.evidence.store_id = storeId;
        const model = await run.step(
          'write model',
          () => fga.writeAuthorizationModel(OPENFGA_SMOKE_MODEL, { storeId }).catch(sdkError),
          (m) => `model ${m.authorization_model_id}`,
        );
        const authorizationModelId = model.authorization_model_id;
        run.evidence.model_id = authorizationModelId;
        const opts = { storeId, authorizationModelId };
        await run.step(
          'write tuple',
          () => fga.write({ writes: [{ user: allowed, relation: 'viewer', object }] }, opts).catch(sdkError),
          () => `${allowed} viewer ${object}`,
        );
        const checks: Record<string, boolean> = {};
        run.evidence.checks = checks;
        const check = async (user: string, want: boolean) => {
          const r = await fga.check({ user, relation: 'viewer', object }, opts).catch(sdkError);
          checks[user] = r.allowed === true;
          if (typeof r.allowed !== 'boolean') throw new CheckFailure('unexpected_response', `check for ${user} answered no allowed field`);
          if (r.allowed !== want)
            throw new CheckFailure('decision_wrong', `check ${user} viewer ${object} is ${r.allowed}, must be ${want}`);
        };
        await run.step(
          'check allowed',
          () => check(allowed, true),
          () => `${allowed} allowed`,
        );
        await run.step(
          'check denied',
          () => check(denied, false),
          () => `${denied} denied`,
        );
      } finally {
        if (storeId) {
          const id = storeId;
          await run.cleanup('delete store', async () => {
            await fga.deleteStore({ storeId: id }).catch(sdkError);
            return `deleted ${id}`;
          });
        } else {
          // A create that timed out may still have made the store: look it up by its fresh name.
          await run.cleanup('delete store', async () => {
            const found = await fga.listStores({ name }).catch(sdkError);
            const leftover = found.stores.filter((s) => s.name === name);
            for (const s of leftover) await fga.deleteStore({ storeId: s.id }).catch(sdkError);
            return leftover.length ? `deleted ${leftover.map((s) => s.id).join(', ')}` : 'no store was created';
          });
        }
      }
    },
    true,
  );
}
