// `navin-manager mirror import | list`: on the isolated side, imports an offline bundle into the internal
// mirror (signature against the trusted release keys, every digest, tags last) and shows what the mirror holds.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openManager } from '../../core/manager';
import { checkMirrorSettings } from '../../core/checks/mirror';
import type { MirrorEndpoint } from '../../core/mirror/oci-client';
import { dataDirOption } from '../data-dir';
import { complain, say } from '../output';
import { progressLine } from '../progress';
import { UsageError, type Command, type ParsedArgs } from '../usage';

function endpointOption(args: ParsedArgs): MirrorEndpoint | undefined {
  const url = args.values.mirror;
  if (url === undefined) {
    if (args.values['mirror-ca'] !== undefined) throw new UsageError('--mirror-ca goes with --mirror');
    return undefined;
  }
  const caFile = args.values['mirror-ca'];
  let ca_pem: string | null = null;
  if (typeof caFile === 'string') {
    try {
      ca_pem = readFileSync(caFile, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --mirror-ca ${caFile}: ${(error as Error).message}`);
    }
  }
  try {
    const s = checkMirrorSettings({ url, ca_pem });
    return { url: s.url!, ca_pem: s.ca_pem };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export const mirrorCommand: Command = {
  name: 'mirror',
  usage: `navin-manager mirror import BUNDLE.tar [--allow-downgrade] [--data-dir D] [--mirror URL [--mirror-ca CA.pem]]
navin-manager mirror list [--json] [--data-dir D] [--mirror URL [--mirror-ca CA.pem]]

import checks the bundle's signed manifest against the release keys this manager trusts
(navin-manager release-key trust), then every entry's sha256 and size, and pushes into the mirror of the
settings (or --mirror): each blob is committed only once its bytes check out, the tags only when the whole
bundle did. Refusals: bundle_signature_invalid, digest_mismatch, bundle_truncated, bundle_malformed,
bundle_tag_not_allowed (a tag that is not the catalog's key and pin, or an image the project does not ship),
bundle_downgrade (older than the bundle that set a tag it would move back; --allow-downgrade takes it, audited);
a refused bundle leaves no new tag. The import is recorded and audited. Exit 0 imported, 1 refused or failed.
list shows what the mirror holds per service and version, and whether it matches the catalog's pins.`,
  options: {
    'data-dir': { type: 'string' },
    mirror: { type: 'string' },
    'mirror-ca': { type: 'string' },
    json: { type: 'boolean' },
    'allow-downgrade': { type: 'boolean' },
  },
  positionals: true,
  async run(args) {
    const [action, ...rest] = args.positionals;
    const endpoint = endpointOption(args);
    if (action === 'import') {
      if (rest.length !== 1) throw new UsageError('expected: navin-manager mirror import BUNDLE.tar');
      const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
      const bar = progressLine();
      try {
        const { import: started, done } = manager.mirror.start(resolve(rest[0]!), 'cli', {
          endpoint,
          allowDowngrade: args.values['allow-downgrade'] === true,
          onProgress: (p) => bar.update(p.bytes_done, p.bytes_total, p.phase),
        });
        say(`importing ${started.bundle_file} into ${started.mirror_url} (import ${started.id})`);
        const end = await done;
        bar.end();
        if (end.state !== 'done') {
          complain(`${end.state}: ${end.code}: ${end.message}`);
          return 1;
        }
        for (const i of end.result!.items) process.stdout.write(`${i.key}  ${i.reference}\n`);
        say(`imported bundle ${end.bundle_id} signed by release key ${end.key_id}: ${end.message}`);
        return 0;
      } finally {
        manager.close();
      }
    }
    if (action === 'list') {
      if (rest.length > 0) throw new UsageError('expected: navin-manager mirror list');
      const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
      try {
        const inv = await manager.mirror.inventory(endpoint);
        if (args.values.json) {
          process.stdout.write(`${JSON.stringify(inv, null, 2)}\n`);
          return 0;
        }
        say(`mirror ${inv.mirror}`);
        let service = '';
        for (const a of inv.artifacts) {
          if (a.service !== service) process.stdout.write(`${(service = a.service)}\n`);
          const arches = a.platforms.map((p) => p.architecture).join(',');
          const state = a.problem
            ? `problem: ${a.problem}`
            : a.catalog === 'pinned'
              ? 'matches the catalog'
              : a.catalog === 'differs'
                ? 'DIFFERS from the catalog'
                : 'not in the catalog';
          process.stdout.write(`  ${a.version}  ${a.name}  ${arches}  ${a.digest}  ${state}\n`);
        }
        if (inv.images.length) process.stdout.write('images\n');
        for (const i of inv.images) process.stdout.write(`  ${i.repository}:${i.tag}  ${i.digest}\n`);
        if (inv.artifacts.length + inv.images.length === 0) say('the mirror holds nothing under navin/');
        return 0;
      } finally {
        manager.close();
      }
    }
    throw new UsageError('expected: navin-manager mirror import BUNDLE.tar | mirror list');
  },
};
