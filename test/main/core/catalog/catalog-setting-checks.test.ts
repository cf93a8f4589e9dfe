// The catalog refuses a setting wherever its encoder cannot write it whole: in any argv a command runs, in a path,
// in a check parameter, inside quotes or beside other text, raw, in a file without a format, in a unit outside an
// Exec line's arguments; and a default or a version's value that is not of the declared type.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { CatalogError, parseCatalog, readCatalogDir, type CatalogProblem } from '../../../../main/core/catalog/catalog-loader';
import { REPO_ROOT } from '../../../support/cli';

const files = () => readCatalogDir(join(REPO_ROOT, 'resources/catalog'));

function problemsWith(file: string, mutate: (doc: any) => void): CatalogProblem[] {
  const all = files().map((f) => {
    if (f.file !== file) return f;
    const doc = parse(f.text);
    mutate(doc);
    return { file: f.file, text: stringify(doc) };
  });
  try {
    parseCatalog(all);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    return (error as CatalogError).problems;
  }
  throw new Error('the catalog was accepted');
}

const reasons = (problems: CatalogProblem[]): string => problems.map((p) => `${p.path}: ${p.reason}`).join('\n');

describe('catalog settings', () => {
  test('the argv of a backup, restore, verify or migration step takes no setting', () => {
    let pushed = -1;
    const step = problemsWith('etcd.yaml', (d) => (pushed = d.backup.steps[0].run.push('{{settings.quota_backend_bytes}}') - 1));
    expect(reasons(step)).toMatch(new RegExp(`backup\\.steps\\[0\\]\\.run\\[${pushed}\\]: .*takes no setting.*argv`));
    const verify = problemsWith('etcd.yaml', (d) => (d.backup.verify.run[3] = '--write-out={{settings.auto_compaction_retention}}'));
    expect(reasons(verify)).toMatch(/backup\.verify\.run\[3\]: .*takes no setting/);
    const restore = problemsWith('nats.yaml', (d) =>
      d.backup.restore.steps[1].run.push('{{#settings.jetstream_max_file}}x{{/settings.jetstream_max_file}}'),
    );
    expect(reasons(restore)).toMatch(/backup\.restore\.steps\[1\]\.run\[\d\]: .*takes no setting/);
    const migration = problemsWith('etcd.yaml', (d) =>
      d.versions[1].upgrade.migrations.push({ name: 'm', description: 'm', run: [['mv', '{{settings.auto_compaction_retention}}', '/x']] }),
    );
    expect(reasons(migration)).toMatch(/migrations\[0\]\.run\[0\]\[1\]: .*takes no setting/);
  });

  test('a path, a check parameter and the host metrics URL take no setting', () => {
    expect(
      reasons(problemsWith('etcd.yaml', (d) => (d.files[0].path = '{{instance.config_dir}}/{{settings.quota_backend_bytes}}.yml'))),
    ).toMatch(/files\[0\]\.path: .*takes no setting/);
    expect(reasons(problemsWith('node-exporter.yaml', (d) => (d.checks.liveness.params.path = '/{{settings.collector_flags}}')))).toMatch(
      /checks\.liveness\.params\.path: .*takes no setting/,
    );
    expect(reasons(problemsWith('node-exporter.yaml', (d) => (d.host_metrics.url += '?x={{settings.collector_flags}}')))).toMatch(
      /host_metrics\.url: .*takes no setting/,
    );
  });

  test('in a config file a setting stands alone, is never raw, and the file declares its format', () => {
    const quoted = problemsWith(
      'etcd.yaml',
      (d) =>
        (d.files[0].content = d.files[0].content.replace(
          '{{settings.auto_compaction_retention}}',
          '"{{settings.auto_compaction_retention}}"',
        )),
    );
    expect(reasons(quoted)).toMatch(/files\[0\]\.content: .*must stand alone/);
    const raw = problemsWith(
      'nats.yaml',
      (d) => (d.files[0].content = d.files[0].content.replace('{{settings.jetstream_max_file}}', '{{{settings.jetstream_max_file}}}')),
    );
    expect(reasons(raw)).toMatch(/written raw/);
    const text = problemsWith('nats.yaml', (d) => delete d.files[0].format);
    expect(reasons(text)).toMatch(/files\[0\]\.content: a file of format text takes no setting/);
  });

  test('in a unit a setting is only an argument of an Exec line, never the command', () => {
    const env = problemsWith(
      'node-exporter.yaml',
      (d) => (d.unit.content = d.unit.content.replace('Restart=on-failure', 'Environment= {{settings.collector_flags}}')),
    );
    expect(reasons(env)).toMatch(/unit\.content: .*Exec/);
    const command = problemsWith(
      'node-exporter.yaml',
      (d) =>
        (d.unit.content = d.unit.content.replace(
          'ExecStart={{bin.node-exporter}}',
          'ExecStartPre= {{settings.collector_flags}}\nExecStart={{bin.node-exporter}}',
        )),
    );
    expect(reasons(command)).toMatch(/unit\.content: .*after the command/);
  });

  test('a default and a version value must be of the declared type', () => {
    const def = problemsWith('nats.yaml', (d) => (d.settings.jetstream_max_memory.default = '256MB; store_dir: "/elsewhere"'));
    expect(reasons(def)).toMatch(/settings\.jetstream_max_memory\.default: the default is not a valid size/);
    const version = problemsWith(
      'node-exporter.yaml',
      (d) => (d.versions[1].settings.collector_flags = '--no-collector.wifi --web.listen-address=:1'),
    );
    expect(reasons(version)).toMatch(/versions\[1\]\.settings\.collector_flags: not a valid list/);
    const untyped = problemsWith('etcd.yaml', (d) => (d.settings.quota_backend_bytes = 2147483648));
    expect(reasons(untyped)).toMatch(/settings\.quota_backend_bytes/);
  });
});
