// Fuzz: random settings, with characters of every Unicode general category, go through the settings' types and
// every template of the catalog that takes settings; whatever is accepted renders into a config that the
// service's own parser reads with exactly the intended keys and values (etcd's start, nats-server -t and /varz,
// systemd-analyze verify). Then the encoders alone, on any text: one token of their file, read back unchanged.
// Real processes are slow, so each property runs many times against a YAML parser or systemd's quoting rules
// and the real parsers take a sample, in batches.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { loadCatalogDir } from '../../../../main/core/catalog/catalog-loader';
import { renderInstance, templateContext, type TemplateContext } from '../../../../main/core/catalog/catalog-templates';
import { natsString, systemdArgument, yamlString } from '../../../../main/core/catalog/setting-encoders';
import { durationNanos, settingProblem, sizeBytes, type SettingDecl, type SettingValue } from '../../../../main/core/catalog/setting-types';
import { REPO_ROOT } from '../../../support/cli';
import {
  describeWithBinaries,
  etcdParsedConfig,
  natsCheck,
  natsVarz,
  systemdExecArgv,
  systemdVerify,
} from '../../../support/config-parsers';
import { tempDir } from '../../../support/temp-dir';
import { closedPort, issueServerCert, testCas } from '../../../support/tls-endpoints';

const catalog = loadCatalogDir(join(REPO_ROOT, 'resources/catalog'));
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

/** Code points of every general category but Cs (no UTF-8 form), from the BMP and the astral planes. */
const CATEGORIES = [
  'Lu',
  'Ll',
  'Lt',
  'Lm',
  'Lo',
  'Mn',
  'Mc',
  'Me',
  'Nd',
  'Nl',
  'No',
  'Pc',
  'Pd',
  'Ps',
  'Pe',
  'Pi',
  'Pf',
  'Po',
  'Sm',
  'Sc',
  'Sk',
  'So',
  'Zs',
  'Zl',
  'Zp',
  'Cc',
  'Cf',
  'Co',
  'Cn',
];
const byCategory: Record<string, number[]> = Object.fromEntries(CATEGORIES.map((c) => [c, []]));
{
  const tests = CATEGORIES.map((c) => [c, new RegExp(`^\\p{gc=${c}}$`, 'u')] as const);
  for (let cp = 1; cp <= 0x10ffff; cp += cp < 0x30000 ? 1 : 97) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    for (const [c, re] of tests)
      if (re.test(ch)) {
        if (byCategory[c]!.length < 4000) byCategory[c]!.push(cp);
        break;
      }
  }
}
/** What config syntaxes make something of, beside the categories. */
const SYNTAX = [...'\n\r\t\v\f"\'\\$%;#{}[]:,= &*!|>-?@`/', '\u2028', '\u2029', '\u0085', '\ufeff', '\ufffe', '\uffff'];
const char = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...CATEGORIES), fc.nat())
      .map(([c, n]) => String.fromCodePoint(byCategory[c]![n % byCategory[c]!.length]!)),
  },
  { weight: 2, arbitrary: fc.constantFrom(...SYNTAX) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
);
const anyText = (maxLength = 24) => fc.string({ unit: char, maxLength });

/** Texts that broke configs before the encoders, each mixing line breaks of every kind with the syntax around them. */
const ATTACKS = [
  '1"\u2028force-new-cluster: true\u2029listen-client-urls: http://0.0.0.0:2379\u0085x: "',
  '256MB; store_dir: "/elsewhere"\n} include "/etc/passwd" {',
  "--no-collector.wifi; /bin/sh -c '$HOME %h' \\\nExecStartPre=/bin/sh",
  "'\ufeff#{[&*!|>%@`\u000b\u000c\ufffe\uffff\u{10ffff}\u{e0001}\u00a0\u3000",
];

/** Values of a setting: of its type, of its type with text after it, and anything at all. */
function valueOf(decl: SettingDecl): fc.Arbitrary<SettingValue> {
  const typed: fc.Arbitrary<SettingValue> = (() => {
    switch (decl.type) {
      case 'integer':
        return fc.integer({ min: decl.min ?? -1e12, max: decl.max ?? 1e12 });
      case 'size':
        return fc.oneof(
          fc.nat({ max: 2 ** 40 }),
          fc
            .tuple(fc.integer({ min: 0, max: 4096 }), fc.constantFrom('', 'B', 'K', 'KB', 'M', 'MB', 'MiB', 'G', 'GB', 'T'))
            .map(([n, u]) => `${n}${u}`),
        );
      case 'duration':
        return fc.oneof(
          fc.constant(''),
          fc.integer({ min: 0, max: 3000 }).map(String),
          fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom('ns', 'us', 'ms', 's', 'm', 'h')).map(([n, u]) => `${n}${u}`),
        );
      case 'list':
        return fc.array(fc.stringMatching(/^--(no-)?collector\.[a-z0-9_]{1,12}$/), { maxLength: 4 }).map((a) => a.join(' '));
      default:
        return fc.constant(decl.default);
    }
  })();
  return fc.oneof(
    typed,
    fc.tuple(typed, anyText(8)).map(([v, t]) => `${v}${t}`),
    anyText(),
    fc.integer(),
    fc.boolean(),
  );
}

const settingsOf = (service: string) =>
  fc.record(
    Object.fromEntries(Object.entries(catalog.service(service)!.settings).map(([k, d]) => [k, valueOf(d)])) as Record<
      string,
      fc.Arbitrary<SettingValue>
    >,
  );
const accepted = (service: string, values: Record<string, SettingValue>): boolean =>
  Object.entries(values).every(([k, v]) => settingProblem(catalog.service(service)!.settings[k]!, v) === null);

function context(service: string, version: string, settings: Record<string, SettingValue>, dataDir: string): TemplateContext {
  return templateContext(catalog.service(service)!, catalog.version(service, version)!, {
    instance: { name: `${service}-1`, address: '127.0.0.1', data_dir: dataDir, config_dir: dataDir },
    settings,
  });
}

/** Go's duration text (as etcd logs it) in nanoseconds. */
const goDurationNanos = (s: string): number => durationNanos(s.replace(/µs/g, 'us'));

describeWithBinaries('settings fuzz, read back by the services’ parsers', ['etcd', 'nats-server', 'systemd-analyze'], () => {
  const dir = tempDir('navin-settings-fuzz-');
  afterAll(() => dir.remove());

  test('etcd: what the types accept renders to exactly the intended keys, as YAML and as etcd reads it', async () => {
    const desc = catalog.service('etcd')!;
    const baseline = parse(renderInstance(desc, context('etcd', '3.4.23-1', {}, '/d')).files[0]!.content, { version: '1.1' }) as Record<
      string,
      unknown
    >;
    const samples: Record<string, SettingValue>[] = [];
    fc.assert(
      fc.property(settingsOf('etcd'), (values) => {
        if (!accepted('etcd', values)) return;
        const text = renderInstance(desc, context('etcd', '3.4.23-1', values, '/d')).files[0]!.content;
        expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
        const yaml = parse(text, { version: '1.1' }) as Record<string, unknown>;
        const retention = values.auto_compaction_retention as string;
        const expected: Record<string, unknown> = { ...baseline, 'quota-backend-bytes': values.quota_backend_bytes };
        if (retention) Object.assign(expected, { 'auto-compaction-mode': 'periodic', 'auto-compaction-retention': retention });
        expect(yaml).toEqual(expected);
        if (samples.length < 6) samples.push(values);
      }),
      { numRuns: 300, seed: SEED },
    );
    expect(samples.length).toBeGreaterThan(0);
    for (const [i, values] of samples.entries()) {
      const ctx = context('etcd', '3.4.23-1', values, join(dir.path, `etcd-${i}`));
      ctx.ports = { client: await closedPort(), peer: await closedPort() };
      const r = await etcdParsedConfig(dir.path, renderInstance(desc, ctx).files[0]!.content);
      expect('config' in r, `seed ${SEED}, ${JSON.stringify(values)}: ${JSON.stringify(r).slice(-1500)}`).toBe(true);
      const config = (r as { config: Record<string, unknown> }).config;
      const retention = values.auto_compaction_retention as string;
      expect(config).toMatchObject({
        name: 'etcd-1',
        'force-new-cluster': false,
        'listen-client-urls': [`http://127.0.0.1:${ctx.ports.client}`],
        'listen-peer-urls': [`http://127.0.0.1:${ctx.ports.peer}`],
        'quota-backend-bytes': values.quota_backend_bytes,
        'auto-compaction-mode': retention ? 'periodic' : '',
      });
      expect(goDurationNanos(config['auto-compaction-retention'] as string)).toBe(retention ? durationNanos(retention, 'h') : 0);
    }
  }, 60_000);

  test('NATS: what the types accept is valid for nats-server, and /varz shows the intended sizes and store', async () => {
    const desc = catalog.service('nats')!;
    const samples: Record<string, SettingValue>[] = [];
    fc.assert(
      fc.property(settingsOf('nats'), (values) => {
        if (!accepted('nats', values)) return;
        const conf = renderInstance(desc, context('nats', '2.9.10-1', values, '/d')).files[0]!.content;
        const lines = conf.split('\n').filter((l) => /^\s*max_(memory|file)_store:/.test(l));
        expect(lines.map((l) => l.trim())).toEqual([
          `max_memory_store: ${sizeBytes(values.jetstream_max_memory as string | number)}`,
          `max_file_store: ${sizeBytes(values.jetstream_max_file as string | number)}`,
        ]);
        if (samples.length < 12) samples.push(values);
      }),
      { numRuns: 300, seed: SEED },
    );
    expect(samples.length).toBeGreaterThan(0);
    for (const [i, values] of samples.entries()) {
      const conf = renderInstance(desc, context('nats', '2.9.10-1', values, join(dir.path, `nats-${i}`))).files[0]!.content;
      expect(natsCheck(dir.path, conf, `nats-${i}`), `seed ${SEED}, ${JSON.stringify(values)}\n${conf}`).toBeNull();
    }
    for (const [i, values] of samples.slice(0, 3).entries()) {
      const ctx = context('nats', '2.9.10-1', values, join(dir.path, `nats-run-${i}`));
      ctx.ports = { client: await closedPort(), cluster: await closedPort(), monitor: await closedPort() };
      const varz = await natsVarz(
        dir.path,
        renderInstance(desc, ctx).files[0]!.content,
        ctx.ports.monitor!,
        (v) => v.jetstream?.config !== undefined,
      );
      expect(varz, `seed ${SEED}`).toMatchObject({
        server_name: 'nats-1',
        port: ctx.ports.client,
        jetstream: {
          config: {
            max_memory: sizeBytes(values.jetstream_max_memory as string | number),
            max_storage: sizeBytes(values.jetstream_max_file as string | number),
            store_dir: join(dir.path, `nats-run-${i}`, 'jetstream'),
          },
        },
      });
    }
  }, 60_000);

  test('node exporter: what the types accept is one ExecStart= argument per flag, and systemd verifies the unit', () => {
    const desc = catalog.service('node-exporter')!;
    const units: { name: string; content: string }[] = [];
    fc.assert(
      fc.property(settingsOf('node-exporter'), (values) => {
        if (!accepted('node-exporter', values)) return;
        const ctx = context('node-exporter', '1.5.0-1', values, '/etc/navin/node-exporter');
        ctx.bin = { 'node-exporter': '/usr/bin/prometheus-node-exporter' };
        const unit = renderInstance(desc, ctx).unit.content;
        const flags = values.collector_flags as string;
        expect(
          unit
            .split('\n')
            .filter((l) => /^[A-Za-z]+=/.test(l))
            .map((l) => l.split('=')[0]),
        ).toEqual(
          // Rendered without TLS: the lines of its TLS block (the key handed over by systemd) are not there.
          desc.unit.content
            .replace(/\{\{#tls\.enabled\}\}[\s\S]*?\{\{\/tls\.enabled\}\}/g, '')
            .split('\n')
            .filter((l) => /^[A-Za-z]+=/.test(l))
            .map((l) => l.split('=')[0]),
        );
        const exec = unit
          .split('\n')
          .find((l) => l.startsWith('ExecStart='))!
          .slice('ExecStart='.length);
        expect(systemdExecArgv(exec).slice(3)).toEqual(flags ? flags.split(' ') : []);
        if (units.length < 40) units.push({ name: `navin-ne-${units.length}.service`, content: unit });
      }),
      { numRuns: 300, seed: SEED },
    );
    expect(units.length).toBeGreaterThan(0);
    const verified = systemdVerify(dir.path, units);
    expect(verified.output, `seed ${SEED}`).not.toMatch(/Unbalanced|Ignoring|escape|bad unit file/i);
    expect(verified.status, verified.output).toBe(0);
  }, 60_000);

  test('every file and unit of the catalog renders into what its parser reads, with and without TLS', () => {
    const units: { name: string; content: string }[] = [];
    // nats-server -t loads the certificate files its config names.
    const ca = testCas().trusted;
    const leaf = issueServerCert(ca, ['127.0.0.1'], new Date(Date.now() - 60_000), new Date(Date.now() + 3_600_000));
    const tlsFiles = { cert_file: join(dir.path, 'tls.crt'), key_file: join(dir.path, 'tls.key'), ca_file: join(dir.path, 'ca.crt') };
    writeFileSync(tlsFiles.cert_file, leaf.certPem);
    writeFileSync(tlsFiles.key_file, leaf.keyPem);
    writeFileSync(tlsFiles.ca_file, ca.certPem);
    for (const desc of catalog.services)
      for (const tls of [false, true]) {
        const version = desc.versions[desc.versions.length - 1]!;
        // The service reads its key where systemd hands it over (LoadCredential=); here, the key written above.
        const tlsInput = { enabled: tls, ...tlsFiles, credential_file: tlsFiles.key_file };
        const ctx = templateContext(desc, version, { instance: { name: 'i1', address: '127.0.0.1' }, tls: tlsInput });
        // systemd checks that the command exists: the artifacts are not installed here.
        ctx.bin = Object.fromEntries(Object.keys(ctx.bin).map((k) => [k, '/bin/true']));
        const { files, unit } = renderInstance(desc, ctx);
        for (const [i, f] of files.entries()) {
          const format = desc.files[i]!.format;
          if (format === 'yaml') expect(() => parse(f.content, { version: '1.1' }), `${desc.service} ${f.name}`).not.toThrow();
          if (format === 'json') expect(() => JSON.parse(f.content) as unknown, `${desc.service} ${f.name}`).not.toThrow();
          if (format === 'nats') expect(natsCheck(dir.path, f.content, `${desc.service}-${f.name}-${tls}`)).toBeNull();
        }
        // The databases run the binaries their Debian packages install and a first-start script of their own,
        // none of them here: those commands alone stand in as /bin/true.
        const content = unit.content.replace(
          /^(ExecStart(?:Pre)?=)(\/usr\/lib\/postgresql\/15\/bin\/postgres|\/usr\/sbin\/mariadbd|\/etc\/navin\/(?:postgresql|mariadb)\/bootstrap\.sh)(?=\s|$)/gm,
          '$1/bin/true',
        );
        units.push({ name: `navin-all-${desc.service}-${tls}.service`, content });
      }
    const verified = systemdVerify(dir.path, units);
    expect(verified.output).not.toMatch(/Unbalanced|Ignoring|escape|bad unit file/i);
    expect(verified.status, verified.output).toBe(0);
  }, 60_000);

  test('the encoders alone: any text of any category is one token its parser reads back unchanged', async () => {
    // The known attacks first, so the real parsers' samples always meet them; then random text.
    const texts = [...ATTACKS, ...fc.sample(anyText(40), { numRuns: 400, seed: SEED }).filter((s) => !s.includes('\0'))];
    for (const s of texts) {
      const token = yamlString(s);
      // go-yaml v2 (etcd) breaks lines on these as YAML 1.1 says; the yaml package does not, so look for them.
      expect(token).not.toMatch(/[\u0085\u2028\u2029\n\r]/);
      for (const version of ['1.1', '1.2'] as const)
        expect(parse(`k: ${token}\nafter: 1\n`, { version }), JSON.stringify(s)).toEqual({ k: s, after: 1 });
      expect(systemdExecArgv(`/bin/true ${systemdArgument(s)} end`), JSON.stringify(s)).toEqual(['/bin/true', s, 'end']);
    }
    // systemd: a sample verified in one run.
    const verified = systemdVerify(
      dir.path,
      texts.slice(0, 60).map((s, i) => ({
        name: `navin-enc-${i}.service`,
        content: `[Unit]\nDescription=x\n[Service]\nExecStart=/bin/true ${systemdArgument(s)} end\nRestart=no\n`,
      })),
    );
    expect(verified.output, `seed ${SEED}`).not.toMatch(/Unbalanced|Ignoring|escape|bad unit file/i);
    expect(verified.status, verified.output).toBe(0);
    // etcd reads the token back as it logs it (initial-cluster-token is logged as read).
    for (const [i, s] of texts.slice(0, 6).entries()) {
      const [client, peer] = [await closedPort(), await closedPort()];
      const yaml = [
        'name: e1',
        `data-dir: ${yamlString(join(dir.path, `enc-etcd-${i}`))}`,
        `listen-client-urls: http://127.0.0.1:${client}`,
        `advertise-client-urls: http://127.0.0.1:${client}`,
        `listen-peer-urls: http://127.0.0.1:${peer}`,
        `initial-advertise-peer-urls: http://127.0.0.1:${peer}`,
        `initial-cluster: e1=http://127.0.0.1:${peer}`,
        `initial-cluster-token: ${yamlString(s)}`,
        'logger: zap',
        'log-outputs: [stderr]',
      ].join('\n');
      const r = await etcdParsedConfig(dir.path, yaml);
      expect(r, `seed ${SEED}, ${JSON.stringify(s)}`).toMatchObject({ config: { 'initial-cluster-token': s, 'force-new-cluster': false } });
    }
    // NATS: nats-server -t on a sample, and /varz says the server name it read (it refuses spaces in one).
    for (const [i, s] of texts.slice(0, 12).entries())
      expect(
        natsCheck(dir.path, `listen: "127.0.0.1:4222"\nserver_name: ${natsString(s || 'x')}\n`, `enc-${i}`),
        JSON.stringify(s),
      ).toBeNull();
    for (const s of texts.filter((t) => t.length > 2).slice(0, 3)) {
      const name = s.replace(/ /g, '_');
      const [client, monitor] = [await closedPort(), await closedPort()];
      const varz = await natsVarz(
        dir.path,
        `listen: "127.0.0.1:${client}"\nhttp: "127.0.0.1:${monitor}"\nserver_name: ${natsString(name)}\n`,
        monitor,
      );
      expect(varz, `seed ${SEED}, ${JSON.stringify(name)}`).toMatchObject({ server_name: name });
    }
  }, 60_000);
});
