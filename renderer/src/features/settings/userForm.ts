// The checks of the new-account form: the route's own schema (the contract's), so that the console refuses what
// the manager would, with the same rules. The manager stays the authority: its answer is shown as well.
import { userCreateSchema, type Role } from '../../../../preload/api';

export type UserFormProblem = 'setup.nameMissing' | 'users.nameInvalid' | 'setup.passwordShort' | 'setup.mismatch';

export interface UserFormInput {
  name: string;
  role: Role;
  password: string;
  confirm: string;
}

/** null when the form may be sent; else the message key of its first problem, in the form's order. */
export function userFormProblem(input: UserFormInput): UserFormProblem | null {
  const name = input.name.trim();
  if (!name) return 'setup.nameMissing';
  const parsed = userCreateSchema.safeParse({ name, role: input.role, password: input.password });
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((i) => i.path[0]));
    if (fields.has('name')) return 'users.nameInvalid';
    if (fields.has('password')) return 'setup.passwordShort';
  }
  return input.password === input.confirm ? null : 'setup.mismatch';
}
