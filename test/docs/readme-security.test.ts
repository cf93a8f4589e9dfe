// README's security section states the limits users and auditors rely on: each figure is read from the README and
// compared with the constant the code enforces, so the two cannot drift apart.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { MAX_BODY } from '../../main/headless/https-server';
import { GATEWAY_MAX_BODY } from '../../main/wire/protocol';
import { MAX_JSON_DEPTH } from '../../main/core/http/json-body';
import { CREDENTIAL_RATE_LIMIT } from '../../main/headless/credential-throttle';
import { PASSWORD_CONCURRENCY, PASSWORD_QUEUE } from '../../main/core/accounts/password-gate';
import { LOCKOUT_MS, MAX_FAILED_LOGINS } from '../../main/core/accounts/accounts';
import { TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS } from '../../main/core/accounts/api-tokens';
import { KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../main/core/http/connection-timeouts';
import { LIMIT_RANGE } from '../../main/contract/query';
import { AGENT_RATE_LIMIT } from '../../main/core/gateway/agent-rate-limit';
import { SNAPSHOTS_KEPT } from '../../main/core/clusters/cluster-access-tables';
import { RECEIPTS_KEPT } from '../../main/core/commands/commands-tables';
import { METRICS_SPACING_MS } from '../../main/core/hosts/host-commands';
import { MAX_CHECK_ANSWER_BYTES } from '../../agent/checks/http-call';
import { MAX_SETTING_TEXT, SETTING_TYPES } from '../../main/core/catalog/setting-types';
import { MIN_PASSWORD_LENGTH, USER_NAME_PATTERN } from '../../main/contract/users';
import { ROUTE_SCHEMAS } from '../../main/contract';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = /^### Security limits\n([\s\S]*?)(?=^#{2,3} )/m.exec(readme)?.[1] ?? '';
/** The table row whose first cell starts with `what`. */
const row = (what: string): string => section.split('\n').find((l) => l.startsWith(`| ${what}`)) ?? '';
const mib = (bytes: number): string => `${bytes / (1 << 20)} MiB`;

test('README has a security section with a table of limits', () => {
  expect(section.length).toBeGreaterThan(0);
  expect(section).toContain('| What | Limit | Past it |');
});

test('it states the body, depth and query limits the listeners enforce, with their codes', () => {
  expect(row('Request body')).toContain(`${mib(MAX_BODY)} on the console API, ${mib(GATEWAY_MAX_BODY)} at the agent gateway`);
  expect(row('Request body')).toContain('413 body_too_large');
  expect(row('JSON nesting')).toContain(`${MAX_JSON_DEPTH} levels`);
  expect(row('JSON nesting')).toContain('400 invalid_json');
  expect(row('JSON text')).toMatch(/surrogate.*400 invalid_json/);
  expect(row('Query numbers')).toContain(`\`limit\` ${LIMIT_RANGE.min} to ${LIMIT_RANGE.max}`);
  expect(row('Query numbers')).toContain('400 invalid_field');
});

test('it states the rate limits, the password checks, the lockout and the token lifetime', () => {
  expect(row('Sign-in routes')).toContain(`${CREDENTIAL_RATE_LIMIT.burst} at once per source`);
  expect(row('Sign-in routes')).toContain(`then ${CREDENTIAL_RATE_LIMIT.perMinute} a minute`);
  expect(row('Sign-in routes')).toContain('429 rate_limited` with `Retry-After');
  expect(row('Password checks')).toContain(`${PASSWORD_CONCURRENCY} at a time, ${PASSWORD_QUEUE} waiting`);
  expect(row('Wrong passwords')).toContain(`${MAX_FAILED_LOGINS} per account`);
  expect(row('Wrong passwords')).toContain(`locked ${LOCKOUT_MS / 60_000} minutes`);
  expect(row('API tokens')).toContain(`${TOKEN_DEFAULT_DAYS} days by default`);
  expect(row('API tokens')).toContain(`at most ${TOKEN_MAX_DAYS} days`);
  expect(row('API tokens')).toMatch(/401 token_expired.*401 token_revoked/);
  expect(row('Idle keep-alive connection')).toContain(`kept ${KEEP_ALIVE_TIMEOUT_MS / 1000} s`);
  expect(row('Idle keep-alive connection')).toContain(`within ${REQUEST_TIMEOUT_MS / 1000} s`);
  expect(section).toMatch(/health` and authenticated calls .* never rate-limited/);
  expect(section).toContain('synchronous=FULL');
});

test('it states the rate limit per agent certificate, what an agent leaves in the store and what checks read', () => {
  expect(row('Agent requests')).toContain(`${AGENT_RATE_LIMIT.burst} at once per agent certificate`);
  expect(row('Agent requests')).toContain(`then ${AGENT_RATE_LIMIT.perMinute} a minute`);
  expect(row('Agent requests')).toContain('429 rate_limited` with `Retry-After');
  expect(row('What an agent leaves')).toContain(`the latest inventory snapshot and ${SNAPSHOTS_KEPT - 1} before it`);
  expect(row('What an agent leaves')).toContain(`${RECEIPTS_KEPT} receipts per command`);
  expect(row('What an agent leaves')).toContain(`a host's figures once every ${METRICS_SPACING_MS / 1000} s, for a day`);
  expect(row('Answers the agents')).toContain(`${mib(MAX_CHECK_ANSWER_BYTES)} each`);
  expect(section).toContain("a journal read's text");
});

test('it states that a service setting is judged by its declared type, with its length limit and code', () => {
  const setting = row('A service setting');
  for (const type of SETTING_TYPES) expect(setting).toContain(type.replace('_', ' '));
  expect(setting).toContain(`at most ${MAX_SETTING_TEXT} characters`);
  expect(setting).toContain('400 invalid_field');
  expect(section).toMatch(/refuses `\{\{settings\.\*\}\}` in any argv/);
});

test('it states that a declared route checks its input before it runs, the account rules and the codes', () => {
  const declared = row("A route's body");
  expect(Object.keys(ROUTE_SCHEMAS).length).toBeGreaterThan(0);
  expect(declared).toContain(`its password at least ${MIN_PASSWORD_LENGTH} characters`);
  // The pattern the README words: 1 to 64 of lowercase letters, digits, ".", "_" and "-", the first a letter.
  expect(USER_NAME_PATTERN.source).toBe('^[a-z][a-z0-9._-]{0,63}$');
  expect(declared).toContain('name 1 to 64 lowercase letters, digits, `.`, `_` or `-` from a letter');
  expect(declared).toMatch(/400 invalid_field` naming the field's JSON path .*400 bad_request/);
});
