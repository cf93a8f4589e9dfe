// OPA's functional test over its REST API (OPA has no official Node client): load a fresh policy, ask one
// decision that must allow and one that must deny, and remove the policy even after a failure.
import type { CheckOutcome, CheckParams } from '../../main/wire/service-checks';
import { toHex } from '../../main/wire/encoding';
import { randomBytes } from '../../main/wire/random';
import { httpCall, joinUrl, shortBody, timeoutOf, type HttpAnswer } from './http-call';
import { CheckFailure, runBody, type RunCheckOptions } from './outcome';

/** Policy ids of the functional test: one fresh id per run with this prefix. */
export const OPA_SMOKE_PREFIX = 'navin-smoke-';

/**
 * The smoke policy: allow exactly the fresh subject reading. `import rego.v1` makes the same text valid on
 * OPA 0.59+ and on OPA 1.x, whose default is Rego v1.
 */
export function opaSmokePolicy(nonce: string): string {
  return [
    `package navin.smoke.n${nonce}`,
    '',
    'import rego.v1',
    '',
    'default allow := false',
    '',
    'allow if {',
    `\tinput.subject == "navin-smoke-${nonce}"`,
    '\tinput.action == "read"',
    '}',
    '',
  ].join('\n');
}

function opaError(answer: HttpAnswer, what: string): CheckFailure {
  const body = answer.json as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof body?.message === 'string' ? `${String(body.code)}: ${body.message}` : shortBody(answer.text);
  return new CheckFailure('http_status', `${what} answered HTTP ${answer.status}: ${detail}`);
}

export function opaPolicyCheck(p: CheckParams<'opa.policy'>, options: RunCheckOptions): Promise<CheckOutcome> {
  const timeout = timeoutOf(p);
  const nonce = toHex(randomBytes(16));
  const id = `${OPA_SMOKE_PREFIX}${nonce}`;
  const policyUrl = joinUrl(p.url, `/v1/policies/${id}`);
  const decisionUrl = joinUrl(p.url, `/v1/data/navin/smoke/n${nonce}/allow`);
  const subject = `navin-smoke-${nonce}`;
  const method =
    `PUT ${policyUrl} (a fresh policy allowing only ${subject} to read), POST ${decisionUrl} for read (must be true) ` +
    'and for write (must be false), then DELETE the policy, even after a failure';
  const decide = async (action: string, want: boolean): Promise<boolean> => {
    const answer = await httpCall('POST', decisionUrl, timeout, { json: { input: { subject, action } } });
    if (answer.status !== 200) throw opaError(answer, decisionUrl);
    const result = (answer.json as { result?: unknown } | undefined)?.result;
    if (typeof result !== 'boolean')
      throw new CheckFailure('decision_wrong', `the decision for ${action} is undefined or not a boolean: ${shortBody(answer.text)}`);
    if (result !== want) throw new CheckFailure('decision_wrong', `the decision for ${action} is ${result}, must be ${want}`);
    return result;
  };
  return runBody(
    'opa.policy',
    method,
    options,
    async (run) => {
      run.evidence.policy_id = id;
      run.evidence.nonce = nonce;
      try {
        await run.step(
          'load policy',
          async () => {
            const answer = await httpCall('PUT', policyUrl, timeout, { text: opaSmokePolicy(nonce), contentType: 'text/plain' });
            if (answer.status !== 200) throw opaError(answer, policyUrl);
          },
          () => `loaded ${id}`,
        );
        const decisions: Record<string, boolean> = {};
        run.evidence.decisions = decisions;
        await run.step(
          'decision allow',
          async () => (decisions.read = await decide('read', true)),
          () => 'read allowed',
        );
        await run.step(
          'decision deny',
          async () => (decisions.write = await decide('write', false)),
          () => 'write denied',
        );
      } finally {
        // Always attempted: a PUT that timed out may still have been stored.
        await run.cleanup('remove policy', async () => {
          const answer = await httpCall('DELETE', policyUrl, timeout);
          if (answer.status === 404) return `${id} was not loaded`;
          if (answer.status !== 200) throw opaError(answer, policyUrl);
          return `removed ${id}`;
        });
      }
    },
    true,
  );
}
