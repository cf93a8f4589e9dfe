// Builds the node agent's Debian package with dpkg-deb: out/navin-node-agent_<version>_amd64.deb holding the
// Node runtime this build runs on (the package Depends on the libraries it links), the bundled agent with the
// .proto files its etcd client loads from `<bundle folder>/../proto`, its hardened systemd unit and the
// maintainer scripts. Every mode, owner and date is fixed, so the same sources
// (and the same runtime) give the same bytes. Prints the package path and its sha256.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const outDir = resolve(values.out ?? join(root, 'out'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bundle = join(root, 'out/agent/navin-node-agent.cjs');
const protoDir = join(root, 'out/proto');
const NAME = 'navin-node-agent';
// Dates in the package: SOURCE_DATE_EPOCH when the caller sets one (the reproducible-builds convention), else 0.
const epoch = Number(process.env.SOURCE_DATE_EPOCH ?? 0);

statSync(bundle); // the agent must be bundled first (npm run build), which also copies the .proto files
const node = realpathSync(process.execPath);

/** The Debian packages that ship the shared libraries the runtime links, with the version installed here. */
function depends() {
  const ldd = execFileSync('ldd', [node], { encoding: 'utf8' });
  const pkgs = new Map();
  for (const line of ldd.split('\n')) {
    const m = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (!m) continue;
    let owner;
    for (const candidate of [m[1], realpathSync(m[1])]) {
      try {
        owner = execFileSync('dpkg-query', ['-S', candidate], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(':')[0];
        break;
      } catch {
        // dpkg knows the file under its other name (usrmerge: /lib vs /usr/lib)
      }
    }
    if (!owner) throw new Error(`no Debian package ships ${m[1]}, which ${node} links`);
    const version = execFileSync('dpkg-query', ['-W', '-f', '${Version}', owner], { encoding: 'utf8' });
    pkgs.set(owner, version.replace(/^\d+:/, '').replace(/-[^-]*$/, ''));
  }
  return [...[...pkgs].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, v]) => `${p} (>= ${v})`), 'systemd'];
}

const stage = join(outDir, 'node-agent-deb');
rmSync(stage, { recursive: true, force: true });
const files = [
  ['usr/lib/navin-node-agent/node', node, 0o755],
  ['usr/lib/navin-node-agent/agent/navin-node-agent.cjs', bundle, 0o644],
  ...readdirSync(protoDir)
    .sort()
    .map((f) => [`usr/lib/navin-node-agent/proto/${f}`, join(protoDir, f), 0o644]),
  ['lib/systemd/system/navin-node-agent.service', join(here, 'debian/navin-node-agent.service'), 0o644],
  ['usr/share/doc/navin-node-agent/copyright', join(here, 'debian/copyright'), 0o644],
];
for (const [path, from, mode] of files) {
  mkdirSync(dirname(join(stage, path)), { recursive: true });
  copyFileSync(from, join(stage, path));
  chmodSync(join(stage, path), mode);
}
const wrapper = join(stage, 'usr/bin/navin-node-agent');
mkdirSync(dirname(wrapper), { recursive: true });
writeFileSync(wrapper, '#!/bin/sh\nexec /usr/lib/navin-node-agent/node /usr/lib/navin-node-agent/agent/navin-node-agent.cjs "$@"\n', {
  mode: 0o755,
});
chmodSync(wrapper, 0o755);

const installedKiB = Math.ceil(files.reduce((n, [path]) => n + statSync(join(stage, path)).size, statSync(wrapper).size) / 1024);
mkdirSync(join(stage, 'DEBIAN'));
writeFileSync(
  join(stage, 'DEBIAN/control'),
  [
    `Package: ${NAME}`,
    `Version: ${pkg.version}`,
    'Architecture: amd64',
    'Maintainer: Navin Console <navin-console@localhost>',
    `Installed-Size: ${installedKiB}`,
    `Depends: ${depends().join(', ')}`,
    'Section: admin',
    'Priority: optional',
    'Description: Navin Node Agent',
    ' Connects out to the Navin manager gateway over mTLS and executes only plans the',
    ' manager signed (files under its managed roots, navin-*.service units, systemctl),',
    ' reporting the host facts and each task. Ships the Node.js runtime it runs on.',
    '',
  ].join('\n'),
);
for (const script of ['postinst', 'prerm', 'postrm']) {
  copyFileSync(join(here, 'debian', script), join(stage, 'DEBIAN', script));
  chmodSync(join(stage, 'DEBIAN', script), 0o755);
}
// Folders 0755, every date the same: nothing in the package depends on when or where it was built.
(function fix(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      chmodSync(p, 0o755);
      fix(p);
    }
    utimesSync(p, epoch, epoch);
  }
})(stage);
chmodSync(stage, 0o755);
utimesSync(stage, epoch, epoch);

const deb = join(outDir, `${NAME}_${pkg.version}_amd64.deb`);
execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '-z9', '--build', stage, deb], {
  env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) },
  stdio: ['ignore', 'ignore', 'inherit'],
});
rmSync(stage, { recursive: true, force: true });
const sha = createHash('sha256').update(readFileSync(deb)).digest('hex');
process.stdout.write(`${deb} sha256:${sha}\n`);
