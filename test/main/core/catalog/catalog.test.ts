// The service catalog: the shipped descriptors validate and pin the real Debian binaries; OPA and OpenFGA say
// their artifacts are unavailable; a bad descriptor is refused naming the file, the path (and line) and the reason.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { BUILTIN_CATALOG_FILES, loadBuiltinCatalog } from '../../../../main/core/catalog/catalog-builtin';
import {
  CatalogError,
  loadCatalogDir,
  parseCatalog,
  readCatalogDir,
  type CatalogProblem,
} from '../../../../main/core/catalog/catalog-loader';
import { REPO_ROOT } from '../../../support/cli';

const CATALOG_DIR = join(REPO_ROOT, 'resources/catalog');
const files = () => readCatalogDir(CATALOG_DIR);

/** The problems of a catalog whose file `file` is replaced by `mutate` of its parsed YAML (or by raw text). */
function problemsWith(file: string, mutate: ((doc: any) => void) | string): CatalogProblem[] {
  const all = files().map((f) => {
    if (f.file !== file) return f;
    if (typeof mutate === 'string') return { file: f.file, text: mutate };
    const doc = parse(f.text);
    mutate(doc);
    return { file: f.file, text: stringify(doc) };
  });
  try {
    parseCatalog(all);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).code).toBe('catalog_invalid');
    return (error as CatalogError).problems;
  }
  throw new Error('the catalog was accepted');
}

describe('the shipped catalog', () => {
  test('the seven descriptors on disk validate, and the manager ships exactly those files', () => {
    const catalog = loadCatalogDir(CATALOG_DIR);
    expect(catalog.services.map((s) => s.service)).toEqual(['etcd', 'mariadb', 'nats', 'node-exporter', 'opa', 'openfga', 'postgresql']);
    expect(BUILTIN_CATALOG_FILES.map((f) => ({ file: f.file, text: f.text }))).toEqual(files());
    const builtin = loadBuiltinCatalog();
    expect(builtin.ok && builtin.catalog.digest).toBe(catalog.digest);
  });

  test('artifacts are keyed <service>:<name>@<version> and placed at navin/<service>/<name>:<version>', () => {
    const catalog = loadCatalogDir(CATALOG_DIR);
    const keys = catalog.allArtifacts().map((a) => `${a.key} ${a.repository}:${a.tag}`);
    expect(keys).toContain('etcd:etcd@3.4.23-1 navin/etcd/etcd:3.4.23-1');
    expect(keys).toContain('etcd:etcdctl@3.4.23-2 navin/etcd/etcdctl:3.4.23-2');
    expect(keys).toContain('nats:nats-server@2.9.10-1 navin/nats/nats-server:2.9.10-1');
    expect(keys).toContain('node-exporter:node-exporter@1.5.0-1 navin/node-exporter/node-exporter:1.5.0-1');
    expect(new Set(keys).size).toBe(keys.length);
    expect(catalog.version('etcd', '3.4.23-1')?.upstream).toBe('3.4.23');
  });

  // The pins are the Debian files of this machine: their sha256 and the package versions they come from.
  test.runIf(existsSync('/usr/bin/etcd') && existsSync('/usr/sbin/nats-server'))(
    'each available artifact pins the sha256 of its Debian file',
    () => {
      const catalog = loadCatalogDir(CATALOG_DIR);
      // Files taken from installed packages; the databases' .deb artifacts are checked where bundles are built.
      const available = catalog
        .allArtifacts()
        .flatMap((a) => a.platforms.filter((p) => p.available && p.source.debian.path !== undefined).map((p) => ({ a, p })));
      expect(available.length).toBe(7); // etcd, etcdctl and node-exporter in two versions, nats-server
      for (const { a, p } of available) {
        if (!p.available) continue;
        const { path, package: pkg, version } = p.source.debian;
        const bytes = readFileSync(path!);
        expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, a.key).toBe(p.digest);
        expect(bytes.length).toBe(p.size);
        expect(execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' })).toBe(version);
      }
    },
  );

  test('OPA and OpenFGA declare versions, ports and checks, with every artifact unavailable and the reason', () => {
    const catalog = loadCatalogDir(CATALOG_DIR);
    for (const service of ['opa', 'openfga']) {
      const desc = catalog.service(service)!;
      expect(desc.versions.length).toBeGreaterThan(0);
      expect(Object.keys(desc.ports).length).toBeGreaterThan(0);
      for (const v of desc.versions) {
        for (const a of catalog.artifacts(service, v.version))
          for (const p of a.platforms) {
            expect(p.available).toBe(false);
            expect(p.available === false && p.reason).toMatch(/no .* binary is on the build machine/i);
          }
        const b = catalog.bundleable(service, v.version, 'amd64');
        expect(b.ok).toBe(false);
      }
    }
    expect(catalog.bundleable('etcd', '3.4.23-1', 'amd64')).toEqual({ ok: true });
    expect(catalog.bundleable('etcd', '3.4.23-1', 'arm64')).toEqual({ ok: false, reason: 'etcd:etcd@3.4.23-1 has no arm64 build' });
  });

  test('upgrade blocks: from, stateful, migrations, rollback', () => {
    const catalog = loadCatalogDir(CATALOG_DIR);
    const etcd = catalog.upgrade('etcd', '3.4.23-1', '3.4.23-2');
    expect(etcd).toMatchObject({ compatible: true, stateful: true, irreversible: [], rollback: { possible: true } });
    expect(catalog.upgrade('opa', '1.21.3-1', '1.21.4-1')).toMatchObject({ compatible: true, stateful: false });
    const down = catalog.upgrade('opa', '1.21.4-1', '1.21.3-1');
    expect(down.compatible).toBe(false);
    expect(down.problems.join('; ')).toMatch(/declares no upgrade path/);
    expect(catalog.upgrade('etcd', '3.4.22-1', '3.4.23-2').problems).toContain('etcd 3.4.22-1 is not in the catalog');
  });
});

describe('a bad descriptor is refused with the file, the path and the reason', () => {
  const cases: { what: string; file: string; mutate: ((d: any) => void) | string; expect: { path?: string; reason: RegExp } }[] = [
    {
      what: 'a digest that is not sha256',
      file: 'etcd.yaml',
      mutate: (d) => (d.versions[0].artifacts[0].platforms.amd64.digest = 'md5:1234'),
      expect: { path: 'versions[0].artifacts[0].platforms.amd64.digest', reason: /sha256:<64 lowercase hex digits>/ },
    },
    {
      what: 'a dependency on a service the catalog does not have',
      file: 'etcd.yaml',
      mutate: (d) => (d.depends_on = ['postgres']),
      expect: { path: 'depends_on[0]', reason: /the catalog has no service postgres/ },
    },
    {
      what: 'a service depending on itself',
      file: 'nats.yaml',
      mutate: (d) => (d.depends_on = ['nats']),
      expect: { path: 'depends_on[0]', reason: /does not depend on itself/ },
    },
    {
      what: 'an unknown check kind',
      file: 'nats.yaml',
      mutate: (d) => (d.checks.liveness.kind = 'nats.ping'),
      expect: { path: 'checks.liveness.kind', reason: /one of tcp, http, etcd.health, nats.healthz/ },
    },
    {
      what: 'a template naming an undeclared port',
      file: 'etcd.yaml',
      mutate: (d) => (d.files[0].content += 'metrics: {{ports.metrics}}\n'),
      expect: { path: 'files[0].content', reason: /\{\{ports\.metrics\}\}: metrics is not declared in ports \(declared: client, peer\)/ },
    },
    {
      what: 'a template naming an unknown variable',
      file: 'nats.yaml',
      mutate: (d) => (d.unit.content = d.unit.content.replace('{{bin.nats-server}}', '{{binary}}')),
      expect: { path: 'unit.content', reason: /\{\{binary\}\} is not a template name/ },
    },
    {
      what: 'a binary the versions do not all carry',
      file: 'etcd.yaml',
      mutate: (d) => (d.unit.content = d.unit.content.replace('{{bin.etcd}}', '{{bin.etcdutl}}')),
      expect: { path: 'unit.content', reason: /etcdutl is not declared in the artifacts of every version/ },
    },
    {
      what: 'an upgrade from a version that does not exist',
      file: 'etcd.yaml',
      mutate: (d) => (d.versions[1].upgrade.from = ['3.4.22-1']),
      expect: { path: 'versions[1].upgrade.from[0]', reason: /3\.4\.22-1 is not a version of etcd/ },
    },
    {
      what: 'a rollback declared possible after an irreversible migration',
      file: 'etcd.yaml',
      mutate: (d) => (d.versions[1].upgrade.migrations = [{ name: 'storage-v4', description: 'rewrites the backend', irreversible: true }]),
      expect: { path: 'versions[1].upgrade.rollback', reason: /irreversible migration storage-v4/ },
    },
    {
      what: 'a check without its required parameter',
      file: 'nats.yaml',
      mutate: (d) => delete d.checks.readiness.params.client_port,
      expect: { path: 'checks.readiness.params', reason: /nats\.jetstream needs the parameter client_port/ },
    },
    {
      what: 'a check parameter naming an undeclared port',
      file: 'node-exporter.yaml',
      mutate: (d) => (d.checks.liveness.params.port = { port: 'web' }),
      expect: { path: 'checks.liveness.params.port.port', reason: /web is not a declared port/ },
    },
    {
      what: 'a field the schema does not know',
      file: 'opa.yaml',
      mutate: (d) => (d.resources.min_gpu = 1),
      expect: { path: 'resources.min_gpu', reason: /Unrecognized key/ },
    },
    {
      what: 'an available artifact without a source',
      file: 'nats.yaml',
      mutate: (d) => delete d.versions[0].artifacts[0].platforms.amd64.source,
      expect: {
        path: 'versions[0].artifacts[0].platforms.amd64',
        reason: /either \{digest, size, source\} or \{available: false, reason\}/,
      },
    },
    {
      what: 'one Debian file pinned to two digests',
      file: 'etcd.yaml',
      mutate: (d) => (d.versions[1].artifacts[0].platforms.amd64.digest = `sha256:${'0'.repeat(64)}`),
      expect: {
        path: 'versions[1].artifacts[0].platforms.amd64.digest',
        reason: /etcd-server=3\.4\.23-4\+b4:\/usr\/bin\/etcd is pinned to sha256:a45de166/,
      },
    },
    {
      what: 'a stateful service without a backup block',
      file: 'nats.yaml',
      mutate: (d) => delete d.backup,
      expect: { path: 'backup', reason: /a stateful service declares how it is backed up/ },
    },
    {
      what: 'a restore step naming a backup file that is not declared',
      file: 'nats.yaml',
      mutate: (d) => (d.backup.restore.steps[3].run[3] = '{{files.store}}'),
      expect: { path: 'backup.restore.steps[3].run[3]', reason: /store is not declared in backup\.files/ },
    },
    {
      what: 'two services on one port of a host',
      file: 'openfga.yaml',
      mutate: (d) => (d.ports.metrics.port = 9100),
      expect: { path: 'ports.metrics.port', reason: /port 9100\/tcp is already node-exporter's/ },
    },
    {
      what: 'a descriptor in the wrong file',
      file: 'opa.yaml',
      mutate: (d) => (d.service = 'opa-server'),
      expect: { path: 'service', reason: /must be described in opa-server\.yaml/ },
    },
    {
      what: 'text that is not YAML',
      file: 'opa.yaml',
      mutate: 'schema: navin.catalog/v1\nservice: opa\n  title: [unclosed\n',
      expect: { path: '', reason: /not valid YAML/ },
    },
  ];

  test.each(cases)('$what', ({ file, mutate, expect: want }) => {
    const problems = problemsWith(file, mutate);
    const match = problems.find((p) => p.file === file && (want.path === undefined || p.path === want.path) && want.reason.test(p.reason));
    expect(match, JSON.stringify(problems, null, 2)).toBeDefined();
    if (want.path) expect(match!.line).toBeGreaterThan(0);
  });

  test('the error message names each problem as file: path (line N): reason', () => {
    const all = files().map((f) => (f.file === 'nats.yaml' ? { ...f, text: f.text.replace('kind: nats.healthz', 'kind: nats.ping') } : f));
    const line =
      all
        .find((f) => f.file === 'nats.yaml')!
        .text.split('\n')
        .findIndex((l) => l.includes('kind: nats.ping')) + 1;
    expect(() => parseCatalog(all)).toThrow(new RegExp(`nats\\.yaml: checks\\.liveness\\.kind \\(line ${line}\\): the kind is one of`));
  });

  test('an empty or missing folder is refused', () => {
    expect(() => parseCatalog([])).toThrow(/no descriptor/);
    expect(() => loadCatalogDir(join(CATALOG_DIR, 'nope'))).toThrow(/cannot be read/);
  });
});

describe('dependency order', () => {
  test('a set backs up each service after those it depends on, the others by name', () => {
    const all = files().map((f) => {
      if (f.file !== 'etcd.yaml') return f;
      const doc = parse(f.text);
      doc.depends_on = ['nats'];
      return { file: f.file, text: stringify(doc) };
    });
    const catalog = parseCatalog(all);
    expect(catalog.dependencyOrder(['etcd', 'nats', 'node-exporter'])).toEqual(['nats', 'etcd', 'node-exporter']);
    const builtin = loadBuiltinCatalog();
    if (!builtin.ok) throw builtin.error;
    expect(builtin.catalog.dependencyOrder(['nats', 'etcd'])).toEqual(['etcd', 'nats']);
  });
});
