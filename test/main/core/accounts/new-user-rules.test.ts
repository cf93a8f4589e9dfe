// A new account obeys one set of rules whichever way it comes: the API route parses it with the contract's schema,
// the CLI and the first-run setup go through the core's check, and the two refuse exactly the same accounts.
import { describe, expect, test } from 'vitest';
import { checkNewUser } from '../../../../main/core/accounts/users';
import { userCreateSchema } from '../../../../main/contract/users';
import type { Role } from '../../../../main/core/accounts/accounts-tables';

const NAMES = ['bob', 'b', 'Bob', '9lives', 'a'.repeat(64), 'a'.repeat(65), 'zoé', 'carol.d-1_x', 'a b', '-x', 'x\n', ''];
const ROLES = ['viewer', 'operator', 'admin', 'root', ''];
const PASSWORDS = ['123456789', '1234567890', 'x'.repeat(200), ''];

describe('the rules of a new account', () => {
  test('the core refuses, on the same field, exactly what the contract refuses', () => {
    for (const name of NAMES)
      for (const role of ROLES)
        for (const password of PASSWORDS) {
          const parsed = userCreateSchema.safeParse({ name, role, password });
          let field: string | undefined;
          try {
            checkNewUser(name, role as Role, password);
          } catch (e) {
            field = (e as { field?: string }).field;
          }
          const label = JSON.stringify({ name, role, password });
          if (parsed.success) expect(field, label).toBeUndefined();
          else expect(field, label).toBe(String(parsed.error.issues[0]!.path[0]));
        }
  });
});
