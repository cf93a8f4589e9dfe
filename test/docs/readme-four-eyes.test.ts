// README states who may create tokens, what four eyes covers and how an approval is bound to its request; the
// figure of the request's size is compared with the constant the approvals enforce.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { CLUSTER_ACTS, MAX_CHANGE_BYTES, SYSTEM_ACTS } from '../../main/core/approvals/approval-acts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = /^### Security limits\n([\s\S]*?)(?=^#{2,3} )/m.exec(readme)?.[1] ?? '';

test('the security section states the size of an approval’s exact request and who creates tokens', () => {
  const row = section.split('\n').find((l) => l.startsWith("| An approval's exact request")) ?? '';
  expect(row).toContain(`${MAX_CHANGE_BYTES / 1024} KiB`);
  expect(section).toContain('token_owner_only');
  expect(section).toContain('approval_needs_session');
});

test('the four-eyes paragraph names every act it covers, the digest and the mismatch refusal', () => {
  for (const act of [...CLUSTER_ACTS, ...SYSTEM_ACTS]) expect(readme).toContain(`\`${act}\``);
  expect(readme).toContain('RFC 8785 canonical JSON of `{action, cluster_id, service, change}`');
  expect(readme).toContain('409 approval_mismatch');
  expect(readme).toContain('409 cluster_not_empty');
});
