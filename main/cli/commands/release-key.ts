// `navin-manager release-key`: the key that signs offline bundles. On the connected side `create` and `export`
// (a file of its own, sealed by a passphrase); on the isolated side `trust`, `list` and `untrust` (the manager's
// list of trusted release public keys).
import { readFileSync, writeFileSync } from 'node:fs';
import { createReleaseKeyFile, exportReleaseKey, readPassphrase } from '../../core/bundle/release-key-file';
import { openManager } from '../../core/manager';
import { nodeEd25519 } from '../../wire/ed25519-node';
import { dataDirOption } from '../data-dir';
import { say } from '../output';
import { requireString, textOptions, UsageError, type Command } from '../usage';

export const releaseKeyCommand: Command = {
  name: 'release-key',
  usage: `navin-manager release-key create --key-file F --passphrase-file P [--label L]
navin-manager release-key export --key-file F [--out release.pem]
navin-manager release-key trust --public-key release.pem [--label L] [--data-dir D]
navin-manager release-key list [--data-dir D]
navin-manager release-key untrust --key-id ID [--data-dir D]

On the connected side, create makes a new Ed25519 release key in its own file (0600), sealed with
AES-256-GCM under a key derived by scrypt from the passphrase (first line of the file, at least 12
characters; - for stdin); it never overwrites a file. export prints the public key (SPKI PEM), which
needs no passphrase. Carry that PEM to the isolated side by a separate way from the bundles.
On the isolated side, an admin trusts it once: imports accept bundles signed by trusted keys only.
The manager's own command key can never be trusted as a release key.`,
  options: textOptions('key-file', 'passphrase-file', 'label', 'out', 'public-key', 'key-id', 'data-dir'),
  positionals: true,
  run(args) {
    const [action, ...rest] = args.positionals;
    if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(' ')}`);
    const label = typeof args.values.label === 'string' ? args.values.label : undefined;
    switch (action) {
      case 'create': {
        const file = requireString(args, 'key-file');
        const created = createReleaseKeyFile(file, readPassphrase(requireString(args, 'passphrase-file')), nodeEd25519, { label });
        say(
          `release key ${created.key_id} created in ${file}; export its public key with: navin-manager release-key export --key-file ${file}`,
        );
        return 0;
      }
      case 'export': {
        const key = exportReleaseKey(requireString(args, 'key-file'));
        if (typeof args.values.out === 'string') {
          writeFileSync(args.values.out, key.public_key_pem, { mode: 0o644 });
          say(`public key of release key ${key.key_id} written to ${args.values.out}`);
        } else process.stdout.write(key.public_key_pem);
        return 0;
      }
      case 'trust':
      case 'list':
      case 'untrust': {
        const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
        try {
          if (action === 'trust') {
            const file = requireString(args, 'public-key');
            let pem: string;
            try {
              pem = readFileSync(file, 'utf8');
            } catch (error) {
              throw new UsageError(`cannot read --public-key ${file}: ${(error as Error).message}`);
            }
            const k = manager.releaseKeys.trust(pem, label, 'cli');
            say(`release key ${k.key_id} (${k.label}) is trusted: bundles it signed can be imported`);
          } else if (action === 'untrust') {
            const id = requireString(args, 'key-id');
            manager.releaseKeys.untrust(id, 'cli');
            say(`release key ${id} is no longer trusted`);
          } else {
            const keys = manager.releaseKeys.list();
            if (keys.length === 0) say('no release key is trusted (navin-manager release-key trust --public-key release.pem)');
            for (const k of keys) process.stdout.write(`${k.key_id}  ${k.label}  added ${k.added_at} by ${k.added_by}\n`);
          }
          return 0;
        } finally {
          manager.close();
        }
      }
      default:
        throw new UsageError('expected: navin-manager release-key create|export|trust|list|untrust');
    }
  },
};
