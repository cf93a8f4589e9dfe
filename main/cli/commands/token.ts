// `navin-manager token create|list|revoke`: API tokens for scripts, accepted as `Authorization: Bearer` by
// /api/v1 until they expire (90 days unless --expires says otherwise) or are revoked.
import { parseTokenLifetime, TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS, type ApiTokenView } from '../../core/accounts/api-tokens';
import { ValidationError } from '../../core/errors';
import { openManager } from '../../core/manager';
import { dataDirOption } from '../data-dir';
import { say } from '../output';
import { requireString, textOptions, UsageError, type Command } from '../usage';

const row = (t: ApiTokenView): string =>
  [t.id, t.state.padEnd(7), `expires ${t.expires_at}`, t.revoked_at ? `revoked ${t.revoked_at} by ${t.revoked_by}` : '', t.name ?? '']
    .filter(Boolean)
    .join('  ');

export const tokenCommand: Command = {
  name: 'token',
  usage: `navin-manager token create --user N [--expires 30d] [--name LABEL] [--data-dir D]
navin-manager token list --user N [--data-dir D]
navin-manager token revoke --user N --id ID [--data-dir D]

create prints the token once on stdout (nothing else); it is stored only as a hash. Send it as
"Authorization: Bearer <token>"; it acts with the user's role until it expires
(--expires: days "30d" or hours "12h", default ${TOKEN_DEFAULT_DAYS}d, at most ${TOKEN_MAX_DAYS}d) or is revoked.
list shows each token's id, state (active, expired, revoked) and expiry.`,
  options: textOptions('user', 'expires', 'name', 'id', 'data-dir'),
  positionals: true,
  run(args) {
    const [action, ...rest] = args.positionals;
    if (!['create', 'list', 'revoke'].includes(action ?? '') || rest.length > 0)
      throw new UsageError('expected: navin-manager token create|list|revoke --user N');
    const user = requireString(args, 'user');
    const id = action === 'revoke' ? requireString(args, 'id') : undefined;
    if (action === 'create') {
      try {
        parseTokenLifetime(args.values.expires);
      } catch (error) {
        if (error instanceof ValidationError) throw new UsageError(`--${error.message}`);
        throw error;
      }
    }
    const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
    try {
      const tokens = manager.accounts.tokens;
      if (action === 'create') {
        const made = tokens.create(user, { expires: args.values.expires, name: args.values.name }, 'cli');
        process.stdout.write(`${made.token}\n`);
      } else if (action === 'list') {
        const items = tokens.list(user);
        if (items.length === 0) say(`${user} has no API token`);
        for (const t of items) process.stdout.write(`${row(t)}\n`);
      } else {
        say(`revoked: ${row(tokens.revoke(user, id!, 'cli'))}`);
      }
      return 0;
    } finally {
      manager.close();
    }
  },
};
