// A command the manager sent without some part (a viewer's view of a journal read or a plan) says so, rather
// than looking as if it had no result; so does a plan whose programs' output was withheld.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import type { PlanView } from '../../preload/api';
import type { CommandView } from '../../renderer/src/api/types';
import { PlanTasks } from '../../renderer/src/features/services/PlanTasks';
import { CommandDetails } from '../../renderer/src/features/commands/CommandParts';

const journalRead = (over: Partial<CommandView> = {}): CommandView => ({
  id: 'j-1',
  cluster_id: 'c-1',
  op: 'journal.tail',
  args: { unit: 'navin-etcd.service', lines: 50 },
  state: 'succeeded',
  code: null,
  result: null,
  requested_by: 'otto',
  created_at: '2026-01-01T00:00:00Z',
  not_after: '2026-01-01T00:15:00Z',
  delivered_at: '2026-01-01T00:00:01Z',
  deliveries: 1,
  completed_at: '2026-01-01T00:00:02Z',
  receipts: [],
  ...over,
});

it('names what the manager withheld from this reader', () => {
  const html = renderToStaticMarkup(createElement(CommandDetails, { command: journalRead({ withheld: ['result'] }) }));
  expect(html).toContain('data-testid="command-withheld"');
  expect(html).toContain('shown to operators and admins only');
  expect(renderToStaticMarkup(createElement(CommandDetails, { command: journalRead() }))).not.toContain('command-withheld');
});

it('a plan without what its programs printed says so above its tasks', () => {
  const plan: PlanView & { host_name: string } = {
    command_id: 'p-1',
    host_id: 'h-1',
    host_name: 'n1',
    state: 'failed',
    code: 'command_failed',
    title: null,
    total: 1,
    succeeded: 0,
    failed_task: 'pack',
    tasks: [
      {
        index: 0,
        id: 'pack',
        kind: 'command.run',
        title: null,
        status: 'failed',
        started_at: null,
        finished_at: null,
        duration_ms: null,
        code: 'command_failed',
        message: null,
        output: null,
        resumed: false,
      },
    ],
  };
  const html = renderToStaticMarkup(createElement(PlanTasks, { plan: { ...plan, withheld: ['output'] } }));
  expect(html).toContain('data-testid="plan-withheld"');
  expect(html).toContain('What the programs it runs printed');
  expect(renderToStaticMarkup(createElement(PlanTasks, { plan }))).not.toContain('plan-withheld');
});
