// The new-account form checks with the route's own schema: what the console refuses, the manager refuses for the
// same field, and what the console lets through, the manager accepts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { userFormProblem } from '../../renderer/src/features/settings/userForm';
import type { Credentials } from '../../main/core/http/router';
import { testManager, type TestManager } from '../support/manager';

let t: TestManager;
let admin: Credentials;
beforeAll(async () => {
  t = testManager();
  admin = await t.login('ada', 'admin');
});
afterAll(() => t.close());

const FIELD_OF = { 'users.nameInvalid': 'name', 'setup.passwordShort': 'password' } as const;

describe('the new-account form', () => {
  test('refuses what the manager refuses, for the same field, and lets through what it accepts', async () => {
    const cases = [
      { name: 'Bob', password: 'long enough password' },
      { name: '9lives', password: 'long enough password' },
      { name: 'a'.repeat(65), password: 'long enough password' },
      { name: 'zoé', password: 'long enough password' },
      { name: 'bob', password: 'short' },
      { name: 'bob', password: '123456789' },
      { name: 'carol.d-1_x', password: '1234567890' },
    ];
    for (const c of cases) {
      const problem = userFormProblem({ ...c, role: 'viewer', confirm: c.password });
      const res = await t.call('POST', '/api/v1/users', { ...c, role: 'viewer' }, admin);
      if (problem === null) expect(res.status, c.name).toBe(201);
      else {
        expect(problem, c.name).not.toBe('setup.mismatch');
        expect(res.body, c.name).toMatchObject({ error: { code: 'invalid_field', field: FIELD_OF[problem as keyof typeof FIELD_OF] } });
      }
    }
    expect(userFormProblem({ name: 'Bob', role: 'viewer', password: 'x', confirm: 'x' })).toBe('users.nameInvalid');
    expect(userFormProblem({ name: 'bob', role: 'viewer', password: 'short', confirm: 'short' })).toBe('setup.passwordShort');
  });

  test('asks for a name first and for the same password twice last', () => {
    expect(userFormProblem({ name: '  ', role: 'viewer', password: '', confirm: '' })).toBe('setup.nameMissing');
    expect(userFormProblem({ name: 'bob', role: 'admin', password: '1234567890', confirm: '1234567891' })).toBe('setup.mismatch');
    expect(userFormProblem({ name: ' bob ', role: 'admin', password: '1234567890', confirm: '1234567890' })).toBeNull();
  });
});
