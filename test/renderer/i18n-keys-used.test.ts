// Every message of the dictionaries is shown somewhere. A key is used when the renderer's source holds it as a
// string literal (`t('nav.label')`, a table of keys, a JSX attribute), when it is a plural form of a literal base
// (`fmt.plural('clusters.count', n)` → `clusters.count.one` and `.other`), or when it belongs to a family composed
// at run time (`t(\`error.${code}\`)`). The families are listed here, so that a key is never kept alive by a
// pattern nobody wrote down: the list must match the templates of the source exactly. (That English and French
// have the same keys is in i18n.test.ts.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { en } from '../../renderer/src/i18n/en';

const SOURCE = join(__dirname, '../../renderer/src');

/** Keys composed from a literal head and parts known at run time only; `*` is one computed part (no dot in it),
 * `**` one that may hold dots. */
const FAMILIES = [
  'agent.gateway.problem.*',
  'agent.image.problem.*',
  'app.live.*',
  'approvals.*', // a decision: approve or reject
  'approvals.action.*',
  'approvals.col.*',
  'approvals.state.*',
  'audit.col.*',
  'backups.col.*',
  'check.status.*',
  'cluster.agent.presence.*',
  'cluster.inventory.source.*',
  'cluster.node.*',
  'clusters.kind.*',
  'clusters.kind.*.help',
  'command.code.*',
  'command.code.*.hint',
  'command.final.*',
  'command.op.**', // an operation's name: managedcomponent.apply, inventory.report…
  'command.state.*',
  'command.waiting.*',
  'command.withheld.*',
  'commands.col.*',
  'components.col.*',
  'components.kind.*',
  'components.problem.*',
  'drift.col.*',
  'drift.mode.*',
  'drift.resolution.*',
  'drift.state.*',
  'error.*',
  'error.*.hint',
  'hosts.col.*',
  'login.notice.*',
  'mirrorScreen.catalog.*',
  'mirrorScreen.phase.*',
  'nav.*',
  'palette.action.*',
  'palette.group.*',
  'profile.name.*',
  'profile.status.*',
  'report.check.*',
  'reports.col.*',
  'reports.html.*',
  'reports.html.*.title',
  'role.*',
  'serviceBackups.col.*',
  'serviceBackups.reason.*',
  'services.action.*',
  'services.actionEffect.*',
  'services.check.step.*',
  'services.col.*',
  'services.operation.state.*',
  'services.state.*',
  'services.task.col.*',
  'services.task.status.*',
  'settings.section.*',
  'sheet.audit.col.*',
  'sheet.check.*',
  'sheet.config.col.*',
  'sheet.drift.*',
  'sheet.instances.col.*',
  'sheet.logs.state.*',
  'sheet.metrics.*',
  'sheet.metrics.last.*',
  'sheet.metrics.source.*',
  'sheet.reason.*',
  'sheet.security.col.*',
  'sheet.state.*',
  'sheet.tab.*',
  'state.*',
  'support.kind.*',
  'tokens.state.*',
  'users.col.*',
  'users.roleHelp.*',
  'verdict.*',
];

/** Families whose head is itself a value (`${prefix}.${name}`): the template, and the heads it is given. */
const VALUE_HEADS: Record<string, { heads: string[]; shapes: string[] }> = {
  // ServiceOperation's words of what the manager names (an action, a phase); a phase name may hold anything but a
  // dot, its spaces written as _.
  '${prefix}.${…}': { heads: ['services.op', 'services.phase'], shapes: ['*'] },
  // SettingsForm: a setting's title and help.
  '${p.words}.title': { heads: ['dns', 'mirror', 'syslog', 'endpointTrust'], shapes: ['title'] },
  '${p.words}.help': { heads: ['dns', 'mirror', 'syslog', 'endpointTrust'], shapes: ['help'] },
  // The plural forms (one, other) of a base: counted with the literals below.
  '${base}.${…}': { heads: [], shapes: [] },
};

interface Source {
  literals: Set<string>;
  /** Templates with a literal head ending in a dot, as shapes (`error.*.hint`). */
  families: Set<string>;
  /** Templates whose head is a value, followed by a dot (`${p.words}.title`). */
  valueHeads: Set<string>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/i18n[\\/](en|fr)\.ts$/.test(path) ? [path] : [];
  });
}

function readSource(): Source {
  const source: Source = { literals: new Set(), families: new Set(), valueHeads: new Set() };
  for (const file of sourceFiles(SOURCE)) {
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, kind);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) source.literals.add(node.text);
      if (ts.isTemplateExpression(node)) {
        const parts = node.templateSpans.map((s) => s.literal.text);
        if (/^[A-Za-z]\w*(\.\w+)*\.$/.test(node.head.text)) source.families.add(node.head.text + parts.map((p) => `*${p}`).join(''));
        else if (node.head.text === '' && parts[0]?.startsWith('.')) {
          const first = node.templateSpans[0]?.expression.getText(sf) ?? '';
          source.valueHeads.add(`\${${first}}` + parts.map((p, i) => (i === 0 ? p : `\${…}${p}`)).join(''));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return source;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const shapeRegExp = (shape: string): RegExp =>
  new RegExp(
    `^${shape
      .split('**')
      .map((part) => part.split('*').map(escape).join('[^.]+'))
      .join('.+')}$`,
  );

const keys = Object.keys(en);
const source = readSource();

describe('message keys', () => {
  it('are composed at run time only in the families listed here', () => {
    // A template whose head is no key's beginning composes something else (a field path, an id).
    const composed = [...source.families].filter((f) => keys.some((k) => k.startsWith(f.slice(0, f.indexOf('*')))));
    expect(composed.sort()).toEqual(FAMILIES.map((f) => f.replaceAll('**', '*')).sort());
    expect([...source.valueHeads].sort()).toEqual(Object.keys(VALUE_HEADS).sort());
  });

  it('each name a message, in every family listed', () => {
    const empty = FAMILIES.filter((f) => !keys.some((k) => shapeRegExp(f).test(k)));
    const heads = Object.values(VALUE_HEADS).flatMap((v) => v.heads.flatMap((h) => v.shapes.map((s) => `${h}.${s}`)));
    expect([...empty, ...heads.filter((h) => !keys.some((k) => shapeRegExp(h).test(k)))]).toEqual([]);
  });

  it('are all used by the renderer', () => {
    const shapes = [
      ...FAMILIES,
      ...Object.values(VALUE_HEADS).flatMap((v) => v.heads.flatMap((h) => v.shapes.map((s) => `${h}.${s}`))),
    ].map(shapeRegExp);
    const pluralBase = (k: string): string | null => /^(.*)\.(one|other)$/.exec(k)?.[1] ?? null;
    const used = (k: string): boolean => {
      const base = pluralBase(k);
      return source.literals.has(k) || (base !== null && source.literals.has(base)) || shapes.some((s) => s.test(k));
    };
    expect(keys.filter((k) => !used(k))).toEqual([]);
  });
});
