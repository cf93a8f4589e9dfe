// `navin-manager token create`: an API token for scripts, accepted as `Authorization: Bearer` by /api/v1.
import { openManager } from '../../core/manager';
import { dataDirOption } from '../data-dir';
import { requireString, UsageError, type Command } from '../usage';

export const tokenCommand: Command = {
  name: 'token',
  usage: `navin-manager token create --user N [--data-dir D]

Prints the token once on stdout; it is stored only as a hash. Send it as
"Authorization: Bearer <token>"; it acts with the user's role.`,
  options: { user: { type: 'string' }, 'data-dir': { type: 'string' } },
  positionals: true,
  run(args) {
    const [action, ...rest] = args.positionals;
    if (action !== 'create' || rest.length > 0) throw new UsageError('expected: navin-manager token create --user N');
    const user = requireString(args, 'user');
    const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
    try {
      process.stdout.write(`${manager.accounts.createApiToken(user, 'cli')}\n`);
      return 0;
    } finally {
      manager.close();
    }
  },
};
