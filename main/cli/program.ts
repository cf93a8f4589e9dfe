// The manager's command line: dispatch to subcommands, map failures to exit codes 0 ok, 1 failure, 2 usage error.
import { CoreError } from '../core/errors';
import { complain } from './output';
import { EXIT_FAILURE, EXIT_USAGE, parse, UsageError, type Command } from './usage';
import { VERSION } from '../core/version';
interface Entry {
  name: string;
  summary: string;
  /** Loaded only when run, so a quick command (verify-report, --help) does not load the whole manager. */
  load: () => Promise<Command>;
}

const COMMANDS: Entry[] = [
  {
    name: 'serve',
    summary: 'run the manager without Electron and serve the console over HTTPS',
    load: async () => (await import('./commands/serve')).serveCommand,
  },
  {
    name: 'start',
    summary: 'open the desktop app, or the headless manager where Electron cannot run',
    load: async () => (await import('./commands/start')).startCommand,
  },
  { name: 'gateway', summary: 'run the mTLS agent gateway alone', load: async () => (await import('./commands/gateway')).gatewayCommand },
  { name: 'user', summary: 'manage local accounts (user add)', load: async () => (await import('./commands/user')).userCommand },
  {
    name: 'token',
    summary: 'create an API token for scripts (token create)',
    load: async () => (await import('./commands/token')).tokenCommand,
  },
  {
    name: 'certs',
    summary: 'every certificate issued, the soonest to expire first (certs list)',
    load: async () => (await import('./commands/certs')).certsCommand,
  },
  {
    name: 'ca',
    summary: 'rotate the manager CA and follow it (ca rotate|status)',
    load: async () => (await import('./commands/ca')).caCommand,
  },
  {
    name: 'verify-report',
    summary: 'verify a signed report offline (exit 0 valid, 1 not valid)',
    load: async () => (await import('./commands/verify-report')).verifyReportCommand,
  },
  {
    name: 'catalog',
    summary: 'validate a folder of service descriptors (catalog check)',
    load: async () => (await import('./commands/catalog')).catalogCommand,
  },
  {
    name: 'release-key',
    summary: 'the key that signs offline bundles (create, export; trust, list, untrust)',
    load: async () => (await import('./commands/release-key')).releaseKeyCommand,
  },
  {
    name: 'bundle',
    summary: 'build a signed offline bundle on the connected side (bundle build)',
    load: async () => (await import('./commands/bundle')).bundleCommand,
  },
  {
    name: 'mirror',
    summary: 'import an offline bundle into the mirror, list what it holds (mirror import, mirror list)',
    load: async () => (await import('./commands/mirror')).mirrorCommand,
  },
  {
    name: 'canonicalize',
    summary: 'print the RFC 8785 canonical JSON of a file (or - for stdin)',
    load: async () => (await import('./commands/canonicalize')).canonicalizeCommand,
  },
];

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
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    complain(`unknown command ${JSON.stringify(name)}; see navin-manager --help`);
    return EXIT_USAGE;
  }
  const command = await entry.load();
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
