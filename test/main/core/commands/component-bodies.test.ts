// The component routes parse their bodies with the contract's schemas, yet a spec reaches the core whole: the core
// judges it against the CRD's schema (an unknown field refused by name, a field of the wrong type by its rule), as
// it did before the routes were declared schema first, and nothing is queued for a refused request.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Credentials } from '../../../../main/core/http/router';
import { testManager, type TestManager } from '../../../support/manager';

let t: TestManager;
let operator: Credentials;
let path: string;

beforeAll(async () => {
  t = testManager();
  operator = await t.login('otto', 'operator');
  path = `/api/v1/clusters/${t.manager.clusters.create({ name: 'bodies' }, 'test').id}/components`;
});
afterAll(() => t?.close());

const refusal = async (body: unknown, to = path) => (await t.call('POST', to, body, operator)).body;

test('a spec that is no object is invalid_field spec', async () => {
  for (const spec of ['opa', [], null, 3])
    expect(await refusal({ name: 'opa-main', spec })).toEqual({
      error: { code: 'invalid_field', field: 'spec', message: 'spec must be an object' },
    });
});

test("a spec's unknown field and a field of the wrong type are the core's answers, naming the field", async () => {
  expect(await refusal({ name: 'opa-main', spec: { component: 'opa', version: '1.0.0', bogus: 1 } })).toMatchObject({
    error: { code: 'invalid_field', field: 'spec.bogus', message: 'spec.bogus is not a field of ManagedComponent' },
  });
  expect(await refusal({ name: 'opa-main', spec: { component: 'opa', version: '1.0.0', replicas: 1.5 } })).toMatchObject({
    error: { code: 'invalid_field', field: 'spec.replicas', message: 'spec.replicas is an integer from 0 to 99' },
  });
  expect(await refusal({ name: 'opa-main', spec: { component: 'opa', version: '1.0.0', resources: { cpu: '1', disk: 2 } } })).toMatchObject(
    { error: { code: 'invalid_field', field: 'spec.resources' } },
  );
});

test('a name that is no text, an action not in the list and an approval that is no text are invalid_field by name', async () => {
  expect(await refusal({ name: 7, spec: { component: 'opa', version: '1.0.0' } })).toEqual({
    error: { code: 'invalid_field', field: 'name', message: 'name is required (the component name)' },
  });
  expect(await refusal({ action: 'explode' }, `${path}/opa-main/actions`)).toEqual({
    error: { code: 'invalid_field', field: 'action', message: 'action must be one of stop, start, restart, rollback' },
  });
  expect(await refusal({ action: 'stop', approval_id: 5 }, `${path}/opa-main/actions`)).toMatchObject({
    error: { code: 'invalid_field', field: 'approval_id' },
  });
  expect(t.manager.tables.commands.list()).toEqual([]);
});
