// `navin-manager user add`: creates a local account from the terminal (passwords come from a file, never argv).
import { readFileSync } from 'node:fs';
import { ROLES } from '../../core/accounts/accounts';
import { openManager } from '../../core/manager';
import type { Role } from '../../core/accounts/accounts-tables';
import { dataDirOption } from '../data-dir';
import { say } from '../output';
import { requireString, UsageError, type Command } from '../usage';

export const userCommand: Command = {
  name: 'user',
  usage: `navin-manager user add --name N --role admin|operator|viewer --password-file F [--data-dir D]

  --name N           the login name (lowercase letters, digits, ".", "_", "-")
  --role R           viewer (read only), operator (changes clusters), admin (also manages users)
  --password-file F  a file holding the password on its first line (at least 10 characters); - for stdin`,
  options: { name: { type: 'string' }, role: { type: 'string' }, 'password-file': { type: 'string' }, 'data-dir': { type: 'string' } },
  positionals: true,
  async run(args) {
    const [action, ...rest] = args.positionals;
    if (action !== 'add' || rest.length > 0) throw new UsageError('expected: navin-manager user add --name N --role R --password-file F');
    const name = requireString(args, 'name');
    const role = requireString(args, 'role') as Role;
    if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
    const file = requireString(args, 'password-file');
    let password: string;
    try {
      password = readFileSync(file === '-' ? 0 : file, 'utf8').split(/\r?\n/)[0] ?? '';
    } catch (error) {
      throw new UsageError(`cannot read --password-file ${file}: ${(error as Error).message}`);
    }
    const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
    try {
      const user = await manager.accounts.addUser(name, role, password, 'cli');
      say(`user ${user.name} created with role ${user.role}`);
      return 0;
    } finally {
      manager.close();
    }
  },
};
