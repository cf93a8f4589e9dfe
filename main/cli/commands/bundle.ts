// `navin-manager bundle build`: on the connected side, packs the catalog's artifacts (from their declared
// Debian sources, each re-hashed against its pin) and the given images into one offline bundle signed by the
// release key.
import { resolve } from 'node:path';
import { buildBundle } from '../../core/bundle/bundle-build';
import { openReleaseKey, readPassphrase } from '../../core/bundle/release-key-file';
import { VERSION } from '../../core/version';
import { nodeEd25519 } from '../../wire/ed25519-node';
import { catalogOption } from '../catalog-option';
import { progressLine } from '../progress';
import { say } from '../output';
import { requireString, textOptions, UsageError, type Command } from '../usage';

const list = (v: unknown): string[] | undefined => (Array.isArray(v) && v.length > 0 ? (v as string[]) : undefined);

export const bundleCommand: Command = {
  name: 'bundle',
  usage: `navin-manager bundle build --out bundle.tar --key-file release.key --passphrase-file P
                           [--catalog DIR] [--service S]... [--image OCI-LAYOUT-DIR]... [--arch amd64]...

Packs every version of every service of the catalog whose artifacts are available for the architectures
(default amd64), each file read from its Debian source (package version checked with dpkg-query, bytes
re-hashed against the catalog's sha256), and each OCI image layout given with --image (the agent image of
npm run build:agent-image is out/agent-image), into one tar with a manifest signed by the release key.
What the catalog marks unavailable is listed as not included; naming such a service with --service fails.
The tar is written to a temp file and renamed when whole. Import it on the isolated side with
navin-manager mirror import bundle.tar.`,
  options: {
    ...textOptions('out', 'key-file', 'passphrase-file', 'catalog'),
    service: { type: 'string', multiple: true },
    image: { type: 'string', multiple: true },
    arch: { type: 'string', multiple: true },
  },
  positionals: true,
  async run(args) {
    const [action, ...rest] = args.positionals;
    if (action !== 'build' || rest.length > 0)
      throw new UsageError('expected: navin-manager bundle build --out bundle.tar --key-file F --passphrase-file P');
    const out = resolve(requireString(args, 'out'));
    const signer = openReleaseKey(requireString(args, 'key-file'), readPassphrase(requireString(args, 'passphrase-file')), nodeEd25519);
    const { catalog, source } = catalogOption(args.values.catalog);
    say(`catalog: ${source} (${catalog.digest})`);
    const bar = progressLine();
    let result;
    try {
      result = await buildBundle({
        catalog,
        out,
        signer,
        builderVersion: VERSION,
        services: list(args.values.service),
        images: list(args.values.image)?.map((d) => resolve(d)),
        architectures: list(args.values.arch),
        onProgress: (p) => bar.update(p.bytes_done, p.bytes_total, p.phase === 'hashing' ? `hashing ${p.current}` : 'writing'),
      });
    } finally {
      bar.end();
    }
    for (const i of result.items) process.stdout.write(`included  ${i.key}  ${i.repository}:${i.tag}  ${i.digest}\n`);
    for (const n of result.not_included) process.stdout.write(`not included  ${n.key} (${n.architecture}): ${n.reason}\n`);
    say(
      `${out}: ${result.items.length} tag${result.items.length === 1 ? '' : 's'}, ${(result.bytes / 1_000_000).toFixed(1)} MB, sha256:${result.sha256.replace('sha256:', '')}, signed by release key ${result.key_id}`,
    );
    return 0;
  },
};
