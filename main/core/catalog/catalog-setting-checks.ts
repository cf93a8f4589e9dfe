// The cross-checks of a descriptor's settings: every default and every version's value is of its declared type,
// and a setting appears in a template only where its encoder writes it whole: as a value of its own in a config
// file that declares its format, or as arguments of a unit's Exec line (never the command itself).
import Mustache from 'mustache';
import type { CatalogDescriptor } from './catalog-schema';
import { settingProblem } from './setting-types';

// The shapes of catalog-cross-checks.ts, which calls this file.
type Path = (string | number)[];
interface Problem {
  path: Path;
  reason: string;
}
type Token = [string, string, number, number, Token[]?];

/** Why a template of this place takes no setting (argv, paths, check parameters). */
export const NO_SETTING_HERE =
  'takes no setting: a setting is written only into a config file with a format or as arguments of a unit’s Exec line (in a command’s argv it could become an option)';

/** The `{{settings.*}}` variables of a template with where they stand (sections on a setting only test it). */
function settingVariables(template: string): { name: string; type: string; start: number; end: number }[] {
  const out: { name: string; type: string; start: number; end: number }[] = [];
  const walk = (tokens: Token[]): void => {
    for (const t of tokens) {
      if ((t[0] === 'name' || t[0] === '&') && t[1].startsWith('settings.')) out.push({ name: t[1], type: t[0], start: t[2], end: t[3] });
      if (t[4]) walk(t[4]);
    }
  };
  try {
    walk(Mustache.parse(template) as unknown as Token[]);
  } catch {
    // catalog-cross-checks reports the parse error of the template.
  }
  return out;
}

const BEFORE = /[\s[,]/;
const AFTER = /[\s,\]}]/;

function checkPlacement(template: string, path: Path, unit: boolean, problems: Problem[]): void {
  for (const v of settingVariables(template)) {
    const at = `{{${v.name}}}`;
    if (v.type === '&') {
      problems.push({ path, reason: `${at} is written raw ({{{…}}} or {{&…}}): a setting is always written by its file's encoder` });
      continue;
    }
    const before = v.start === 0 ? '\n' : template[v.start - 1]!;
    const after = v.end >= template.length ? '\n' : template[v.end]!;
    if (!BEFORE.test(before) || !AFTER.test(after)) {
      problems.push({
        path,
        reason: `${at} must stand alone as a value (not inside quotes or beside other text): its encoder writes it whole, quoted as the file needs`,
      });
      continue;
    }
    if (!unit) continue;
    const lineStart = template.lastIndexOf('\n', v.start - 1) + 1;
    const line = template.slice(lineStart, v.start);
    const exec = /^Exec[A-Za-z]*=\s*\S+\s/.exec(line);
    if (!exec)
      problems.push({
        path,
        reason: `${at} may appear in a unit only as an argument of an Exec…= line, after the command (systemd quoting applies only there)`,
      });
  }
}

export function checkSettings(desc: CatalogDescriptor, problems: Problem[]): void {
  for (const [name, decl] of Object.entries(desc.settings)) {
    const problem = settingProblem(decl, decl.default);
    if (problem) problems.push({ path: ['settings', name, 'default'], reason: `the default is not a valid ${decl.type}: ${problem}` });
    if (decl.type === 'integer' && decl.min !== undefined && decl.max !== undefined && decl.min > decl.max)
      problems.push({ path: ['settings', name, 'min'], reason: `min ${decl.min} is above max ${decl.max}` });
  }
  desc.versions.forEach((v, vi) => {
    for (const [name, value] of Object.entries(v.settings)) {
      const decl = desc.settings[name];
      if (!decl) continue; // catalog-cross-checks names an undeclared setting
      const problem = settingProblem(decl, value);
      if (problem) problems.push({ path: ['versions', vi, 'settings', name], reason: `not a valid ${decl.type}: ${problem}` });
    }
  });
  desc.files.forEach((f, i) => {
    const path: Path = ['files', i, 'content'];
    if (f.format === 'text') {
      if (settingVariables(f.content).length > 0)
        problems.push({
          path,
          reason: 'a file of format text takes no setting: declare its format (yaml, nats, json) so its encoder writes them',
        });
    } else checkPlacement(f.content, path, false, problems);
  });
  checkPlacement(desc.unit.content, ['unit', 'content'], true, problems);
}
