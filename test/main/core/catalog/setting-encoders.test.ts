// Settings cannot become configuration. What an attacker typed into a "one-line" setting is refused by the
// setting's type; and even a value that got past a type stays one token of its file, as the services' own
// parsers read it: etcd takes the whole value as its retention (no force-new-cluster), nats-server keeps its
// store_dir, systemd passes each collector flag as one argument.
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { loadCatalogDir } from '../../../../main/core/catalog/catalog-loader';
import { renderInstance, templateContext, type TemplateContext } from '../../../../main/core/catalog/catalog-templates';
import { encodeSetting, jsonString, natsString, systemdArgument, yamlString } from '../../../../main/core/catalog/setting-encoders';
import { settingProblem, type SettingDecl } from '../../../../main/core/catalog/setting-types';
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
import { closedPort } from '../../../support/tls-endpoints';

const catalog = loadCatalogDir(join(REPO_ROOT, 'resources/catalog'));
const ANYTHING: SettingDecl = { type: 'pattern', pattern: '[^]*', optional: true, default: '' };

/** A context whose given settings skip their types: what the encoders alone make of a hostile value. */
function untyped(service: string, version: string, settings: Record<string, string>, dataDir: string): TemplateContext {
  const desc = catalog.service(service)!;
  const ctx = templateContext(desc, catalog.version(service, version)!, {
    instance: { name: `${service}-1`, address: '127.0.0.1', data_dir: dataDir, config_dir: dataDir },
    settings,
  });
  ctx.setting_types = { ...desc.settings, ...Object.fromEntries(Object.keys(settings).map((k) => [k, ANYTHING])) };
  return ctx;
}

/** Go's %q quoting undone (what etcd's error quotes). */
const goUnquote = (q: string): string =>
  Buffer.from(
    q.replace(/\\x([0-9a-f]{2})|\\(["\\])|([^\\])/gi, (_m, x: string | undefined, e: string | undefined, c: string | undefined) =>
      x ? String.fromCharCode(parseInt(x, 16)) : (e ?? Buffer.from(c!, 'utf8').toString('latin1')),
    ),
    'latin1',
  ).toString('utf8');

test('every encoder writes a value as one token of its file and refuses NUL and lone surrogates', () => {
  const v = 'a"b\\c\u2028d\u0085e$f%g\n\u{1F600}';
  expect(yamlString(v)).toBe('"a\\"b\\\\c\\u2028d\\u0085e$f%g\\u000A\\U0001F600"');
  expect(parse(`k: ${yamlString(v)}`, { version: '1.1' })).toEqual({ k: v });
  expect(natsString('256MB; store_dir: "/x" $V')).toBe('"256MB\\x3B store_dir: \\x22/x\\x22 \\x24V"');
  expect(systemdArgument('--a; $HOME %h "x"')).toBe('"--a; $$HOME %%h \\"x\\""');
  expect(JSON.parse(jsonString(v))).toBe(v);
  expect(jsonString('\u2028')).toBe('"\\u2028"');
  for (const bad of ['a\0b', 'a\ud800b'])
    for (const enc of [yamlString, natsString, systemdArgument, jsonString]) expect(() => enc(bad)).toThrow(/NUL/);
  const list: SettingDecl = { type: 'list', item: '.+', default: '' };
  expect(encodeSetting('systemd', list, '--a --b')).toBe('"--a" "--b"');
  expect(encodeSetting('yaml', list, '--a --b')).toBe('["--a", "--b"]');
  expect(encodeSetting('nats', { type: 'size', default: '1G' }, '256MB')).toBe('268435456');
});

describeWithBinaries('settings read by the services’ own parsers', ['etcd', 'nats-server', 'systemd-analyze'], () => {
  const dir = tempDir('navin-settings-');
  afterAll(() => dir.remove());

  test('an etcd setting with U+2028, U+2029 and U+0085 is refused, and written anyway etcd reads it whole as the retention (no force-new-cluster)', async () => {
    const hostile = '1"\u2028force-new-cluster: true\u2029listen-client-urls: http://0.0.0.0:2379\u0085x: "';
    expect(settingProblem(catalog.service('etcd')!.settings.auto_compaction_retention!, hostile)).toMatch(/duration/);

    const ctx = untyped('etcd', '3.4.23-1', { auto_compaction_retention: hostile }, join(dir.path, 'etcd'));
    ctx.ports = { client: await closedPort(), peer: await closedPort() };
    const config = renderInstance(catalog.service('etcd')!, ctx).files[0]!.content;
    const keys = Object.keys(parse(config, { version: '1.1' }) as object);
    expect(keys).not.toContain('force-new-cluster');
    expect(keys.filter((k) => k === 'listen-client-urls')).toHaveLength(1);

    const r = await etcdParsedConfig(dir.path, config);
    expect('error' in r, JSON.stringify(r).slice(0, 2000)).toBe(true);
    const log = (r as { error: string }).error;
    // etcd refuses the retention and quotes it whole (Go's %q): the value never left its scalar.
    const failed = log
      .split('\n')
      .filter((l) => l.includes('error parsing CompactionRetention'))
      .map((l) => (JSON.parse(l) as { error: string }).error)[0];
    const quoted = failed && / in duration "(.*)"$/.exec(failed);
    expect(quoted, log.slice(-1500)).toBeTruthy();
    expect(goUnquote(quoted![1]!)).toBe(hostile);
  }, 30_000);

  test('a NATS size "256MB; store_dir: \\"/elsewhere\\"" is refused, and written anyway nats-server keeps its own store_dir', async () => {
    const hostile = '256MB; store_dir: "/elsewhere"';
    expect(settingProblem(catalog.service('nats')!.settings.jetstream_max_memory!, hostile)).toMatch(/size/);
    const typed = templateContext(catalog.service('nats')!, catalog.version('nats', '2.9.10-1')!, {
      instance: { name: 'n1', address: '127.0.0.1' },
      settings: { jetstream_max_memory: hostile },
    });
    // Rendering judges the value by its type again (a recorded configuration may predate the type): 400, not written.
    expect(() => renderInstance(catalog.service('nats')!, typed)).toThrow(
      expect.objectContaining({
        code: 'invalid_field',
        message: expect.stringMatching(/setting jetstream_max_memory \(size\): a size in bytes/),
      }),
    );

    const ctx = untyped('nats', '2.9.10-1', { jetstream_max_memory: hostile }, join(dir.path, 'nats'));
    const conf = renderInstance(catalog.service('nats')!, ctx).files[0]!.content;
    expect(conf).toContain('max_memory_store: "256MB\\x3B store_dir: \\x22/elsewhere\\x22"');
    // nats-server reads the whole value as one string where a size belongs (its size parser drops the last
    // character, a unit, before the number): nothing was added to the block.
    expect(natsCheck(dir.path, conf, 'hostile')).toContain('max_mem_store strconv.ParseInt: parsing "256MB; store_dir: \\"/elsewhere":');

    const good = templateContext(catalog.service('nats')!, catalog.version('nats', '2.9.10-1')!, {
      instance: { name: 'n1', address: '127.0.0.1', data_dir: join(dir.path, 'nats-good') },
      settings: { jetstream_max_memory: '64MB' },
    });
    good.ports = { client: await closedPort(), cluster: await closedPort(), monitor: await closedPort() };
    const varz = await natsVarz(
      dir.path,
      renderInstance(catalog.service('nats')!, good).files[0]!.content,
      good.ports.monitor!,
      (v) => v.jetstream?.config !== undefined,
    );
    expect(varz).toMatchObject({
      jetstream: { config: { max_memory: 64 * 2 ** 20, max_storage: 2 ** 30, store_dir: join(dir.path, 'nats-good', 'jetstream') } },
    });
  }, 30_000);

  test('node exporter collector flags are refused unless each is a collector switch, and each lands as one ExecStart= argument', () => {
    const decl = catalog.service('node-exporter')!.settings.collector_flags!;
    const hostile = '--no-collector.wifi --web.listen-address=0.0.0.0:9100 ; /bin/sh $HOME %h';
    expect(settingProblem(decl, hostile)).toMatch(/collector/);
    expect(settingProblem(decl, '--no-collector.wifi --collector.systemd')).toBeNull();

    const units = [
      { flags: '--no-collector.wifi --collector.systemd', typed: true },
      { flags: hostile, typed: false },
    ].map(({ flags, typed }, i) => {
      const desc = catalog.service('node-exporter')!;
      const ctx = templateContext(desc, catalog.version('node-exporter', '1.5.0-1')!, {
        instance: { name: 'h1', address: '10.0.0.1' },
        settings: { collector_flags: flags },
      });
      if (!typed) ctx.setting_types = { collector_flags: { type: 'list', item: '[^ ]+', default: '' } };
      ctx.bin = { 'node-exporter': '/usr/bin/prometheus-node-exporter' };
      return { name: `navin-node-exporter-${i}.service`, content: renderInstance(desc, ctx).unit.content, flags };
    });
    const verified = systemdVerify(dir.path, units);
    expect(verified.output).not.toMatch(/Unbalanced|Ignoring|escape|bad unit file/i);
    expect(verified.status, verified.output).toBe(0);
    for (const u of units) {
      const line = u.content.split('\n').find((l) => l.startsWith('ExecStart='))!;
      expect(systemdExecArgv(line.slice('ExecStart='.length))).toEqual([
        '/usr/bin/prometheus-node-exporter',
        '--web.listen-address=10.0.0.1:9100',
        '--web.config.file=/etc/navin/node-exporter/web-config.yml',
        ...u.flags.split(' '),
      ]);
    }
  }, 60_000);
});
