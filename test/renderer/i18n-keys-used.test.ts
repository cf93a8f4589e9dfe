// Every message of the dictionaries is shown somewhere. A key is used when the renderer's source holds it as a
// string literal (`t('nav.label')`, a table of keys, a JSX attribute), when it is a plural form of a literal base
// (`fmt.plural('clusters.count', n)` → `clusters.count.one` and `.other`), or when it belongs to a family composed
// at run time (`t(\`error.${code}\`)`). The families are listed here, so that a key is never kept alive by a
// pattern nobody wrote down: the list must match the templates of the source exactly. A key lives beside the one
// feature that uses it (features/<domain>/messages.*.ts), or in i18n/ when several parts of the renderer use it.
// (That English and French have the same keys is in i18n.test.ts and i18n-parts.test.ts.)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MESSAGE_PARTS, en } from '../../renderer/src/i18n/dictionaries';

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
  'certificates.kind.*',
  'certificates.state.*',
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
    return /\.tsx?$/.test(e.name) && !/\.(en|fr)\.ts$/.test(e.name) ? [path] : [];
  });
}

function readSource(files: string[]): Source {
  const source: Source = { literals: new Set(), families: new Set(), valueHeads: new Set() };
  for (const file of files) {
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
const files = sourceFiles(SOURCE);
const source = readSource(files);

/** Whether a source uses a key: as a literal, as the literal base of its plural forms, or in a family it composes. */
function usedIn(src: Source): (key: string) => boolean {
  const shapes = [
    ...FAMILIES.filter((f) => src.families.has(f.replaceAll('**', '*'))),
    ...Object.entries(VALUE_HEADS)
      .filter(([template]) => src.valueHeads.has(template))
      .flatMap(([, v]) => v.heads.flatMap((h) => v.shapes.map((s) => `${h}.${s}`))),
  ].map(shapeRegExp);
  return (k) => {
    const base = /^(.*)\.(one|other)$/.exec(k)?.[1];
    return src.literals.has(k) || (base !== undefined && src.literals.has(base)) || shapes.some((s) => s.test(k));
  };
}

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

describe('a message key', () => {
  // The folder a source file belongs to: a feature, or the shared rest (app, components, stores…). The translator
  // (i18n/) names a key only to type a plural, which is no use of it.
  const ownerOf = (file: string): string | null => {
    const [top, feature] = relative(SOURCE, file).split(sep);
    if (top === 'i18n') return null;
    return top === 'features' && feature ? feature : 'shared';
  };
  const owners = new Map<string, string[]>();
  for (const file of files) {
    const owner = ownerOf(file);
    if (owner) owners.set(owner, [...(owners.get(owner) ?? []), file]);
  }
  const users = [...owners].map(([owner, mine]) => ({ owner, uses: usedIn(readSource(mine)) }));
  const usersOf = (key: string): string[] => users.filter((u) => u.uses(key)).map((u) => u.owner);
  const featureOf = (key: string): string | null => {
    const who = usersOf(key);
    return who.length === 1 && who[0] !== 'shared' ? (who[0] ?? null) : null;
  };

  it('that one feature alone uses lives in that feature, and one that several use lives in i18n/', () => {
    const misplaced = Object.entries(MESSAGE_PARTS).flatMap(([part, { en: words }]) => {
      const shared = !owners.has(part);
      return Object.keys(words)
        .filter((k) => featureOf(k) !== (shared ? null : part))
        .map((k) => `${k}: in ${part}, used by ${usersOf(k).join(', ')}`);
    });
    expect(misplaced).toEqual([]);
  });
});
