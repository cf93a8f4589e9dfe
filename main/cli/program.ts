// The manager's command line: dispatch to subcommands, map failures to exit codes 0 ok, 1 failure, 2 usage error.
import { CoreError } from '../core/errors';
import { complain } from './output';
import { EXIT_FAILURE, EXIT_USAGE, parse, UsageError, type Command } from './usage';
import { serveCommand } from './commands/serve';
import { startCommand } from './commands/start';
import { userCommand } from './commands/user';
import { tokenCommand } from './commands/token';
import { verifyReportCommand } from './commands/verify-report';
import { canonicalizeCommand } from './commands/canonicalize';
import { gatewayCommand } from './commands/gateway';
import { VERSION } from '../core/manager';

const COMMANDS: Command[] = [serveCommand, startCommand, gatewayCommand, userCommand, tokenCommand, verifyReportCommand, canonicalizeCommand];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `navin-manager ${VERSION}: the Navin Console manager`,
    '',
    'usage: navin-manager <command> [options]   (navin-manager <command> --help for each)',
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Exit codes: 0 ok, 1 failure, 2 usage error.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${overview()}\n`);
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version' || name === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    complain(`unknown command ${JSON.stringify(name)}; see navin-manager --help`);
    return EXIT_USAGE;
  }
  try {
    const args = parse(command, rest);
    if (args.values.help) {
      process.stdout.write(`${command.usage}\n`);
      return 0;
    }
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      complain(`${error.message}\nusage: ${command.usage.split('\n')[0]}`);
      return EXIT_USAGE;
    }
    if (error instanceof CoreError) {
      complain(`${error.code}: ${error.message}`);
      return EXIT_FAILURE;
    }
    complain(`failed: ${(error as Error)?.message ?? String(error)}`);
    return EXIT_FAILURE;
  }
}

