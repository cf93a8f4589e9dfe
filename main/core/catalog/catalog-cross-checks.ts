// What the schema cannot see alone: names that refer to each other inside a descriptor (ports, artifacts,
// settings, backup files, upgrade versions, check kinds and their parameters, template names) and across
// descriptors (service names, units, ports). Each problem names its path in the descriptor.
import { HOST_SYSCTL_KEYS, HOST_TOOLS } from '../../wire/node-agent';
import { paramNames } from '../../wire/service-checks';
import type { CatalogDescriptor, CheckParamValue } from './catalog-schema';
import { checkSettings, NO_SETTING_HERE } from './catalog-setting-checks';
import { MEMBER_FIELDS, TEMPLATE_NAMES, templateReferences } from './catalog-templates';

export type Path = (string | number)[];
export interface Problem {
  path: Path;
  reason: string;
}

/** Compares x.y.z-r versions numerically. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string): number[] => v.split(/[.-]/).map((x) => Number(x));
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

interface NameScope {
  ports: Set<string>;
  bin: Set<string>;
  settings: Set<string>;
  files: Set<string>;
  /** backup_dir and files.* are only known to backup, restore and verify steps. */
  backup: boolean;
  /** Only config file contents and the unit take settings (their encoders write them). */
  settingsAllowed?: boolean;
}

function checkTemplate(template: string, path: Path, scope: NameScope, problems: Problem[]): void {
  let refs;
  try {
    refs = templateReferences(template);
  } catch (error) {
    problems.push({ path, reason: `the template does not parse: ${(error as Error).message}` });
    return;
  }
  if (refs.partials) problems.push({ path, reason: 'templates have no partials ({{> name}})' });
  for (const { name, sections } of refs.references) {
    if (name === '.') continue;
    const [root, ...rest] = name.split('.');
    if (sections.includes('members') && rest.length === 0 && (MEMBER_FIELDS as readonly string[]).includes(root!)) continue;
    const allowed = (TEMPLATE_NAMES as Record<string, readonly string[] | '*' | null>)[root!];
    if (allowed === undefined) {
      problems.push({ path, reason: `{{${name}}} is not a template name (known: ${Object.keys(TEMPLATE_NAMES).join(', ')})` });
      continue;
    }
    if (root === 'settings' && !scope.settingsAllowed) {
      problems.push({ path, reason: `{{${name}}}: this template ${NO_SETTING_HERE}` });
      continue;
    }
    if ((root === 'backup_dir' || root === 'files') && !scope.backup) {
      problems.push({ path, reason: `{{${name}}} is known only to backup, restore and verify steps` });
      continue;
    }
    if (allowed === null) {
      if (rest.length > 0) problems.push({ path, reason: `{{${name}}}: ${root} has no fields` });
      continue;
    }
    if (rest.length !== 1) {
      problems.push({ path, reason: `{{${name}}} must name one field of ${root}` });
      continue;
    }
    const field = rest[0]!;
    if (allowed === '*') {
      const declared = scope[root as 'ports' | 'bin' | 'settings' | 'files'];
      if (!declared.has(field))
        problems.push({
          path,
          reason: `{{${name}}}: ${field} is not declared in ${root === 'bin' ? 'the artifacts of every version' : root === 'files' ? 'backup.files' : root} (declared: ${[...declared].join(', ') || 'none'})`,
        });
    } else if (!allowed.includes(field)) problems.push({ path, reason: `{{${name}}}: ${root} has the fields ${allowed.join(', ')}` });
  }
}

/** Each key must be declared once: a repeat is a problem at its own path, naming the index of the first. */
function duplicateKeys(entries: { key: string; path: Path }[], what: string, problems: Problem[]): void {
  const seen = new Map<string, number>();
  entries.forEach(({ key, path }, i) => {
    if (seen.has(key))
      problems.push({ path, reason: `${what} ${JSON.stringify(key)} is declared twice (first at index ${seen.get(key)})` });
    else seen.set(key, i);
  });
}

/** Each item's `field` must differ from the others' in the list at `list` of the descriptor. */
function duplicates<F extends string>(items: Record<F, string>[], field: F, list: Path, what: string, problems: Problem[]): void {
  duplicateKeys(
    items.map((item, i) => ({ key: item[field], path: [...list, i, field] })),
    what,
    problems,
  );
}

/** The cross-checks of one descriptor, given the file it came from. */
export function crossCheckDescriptor(desc: CatalogDescriptor, file: string): Problem[] {
  const problems: Problem[] = [];
  const expectedFile = `${desc.service}.yaml`;
  if (file.replace(/^.*\//, '') !== expectedFile)
    problems.push({ path: ['service'], reason: `the service ${desc.service} must be described in ${expectedFile}` });

  const versions = new Set(desc.versions.map((v) => v.version));
  duplicates(desc.versions, 'version', ['versions'], 'version', problems);
  const portNames = new Set(Object.keys(desc.ports));
  duplicateKeys(
    Object.entries(desc.ports).map(([name, p]) => ({ key: `${p.port}/${p.protocol}`, path: ['ports', name, 'port'] })),
    'port',
    problems,
  );
  duplicates(desc.files, 'name', ['files'], 'file', problems);
  duplicates(desc.files, 'path', ['files'], 'file path', problems);

  // bin.<name> must exist in every version, since the same templates serve them all.
  const everyVersion = desc.versions
    .map((v) => new Set(v.artifacts.map((a) => a.name)))
    .reduce((acc, s) => new Set([...acc].filter((x) => s.has(x))));
  const settings = new Set(Object.keys(desc.settings));
  const backupFiles = new Set((desc.backup?.files ?? []).map((f) => f.name));
  const scope: NameScope = { ports: portNames, bin: everyVersion, settings, files: backupFiles, backup: false };
  const backupScope: NameScope = { ...scope, backup: true };

  desc.preflight.free_ports.forEach((p, i) => {
    if (!portNames.has(p))
      problems.push({
        path: ['preflight', 'free_ports', i],
        reason: `${p} is not a declared port (declared: ${[...portNames].join(', ')})`,
      });
  });

  // The preflight judges them on what the node agents report: only what they read can be required.
  desc.preflight.kernel.forEach((k, i) => {
    if (!(HOST_SYSCTL_KEYS as readonly string[]).includes(k.key))
      problems.push({
        path: ['preflight', 'kernel', i, 'key'],
        reason: `${k.key} is not a kernel setting the node agent reports (${HOST_SYSCTL_KEYS.join(', ')})`,
      });
  });
  desc.preflight.tools.forEach((t, i) => {
    if (!(HOST_TOOLS as readonly string[]).includes(t))
      problems.push({ path: ['preflight', 'tools', i], reason: `${t} is not a tool the node agent reports (${HOST_TOOLS.join(', ')})` });
  });

  const contentScope: NameScope = { ...scope, settingsAllowed: true };
  desc.files.forEach((f, i) => {
    checkTemplate(f.path, ['files', i, 'path'], scope, problems);
    checkTemplate(f.content, ['files', i, 'content'], contentScope, problems);
  });
  checkTemplate(desc.unit.content, ['unit', 'content'], contentScope, problems);
  checkSettings(desc, problems);
  if (desc.host_metrics) checkTemplate(desc.host_metrics.url, ['host_metrics', 'url'], scope, problems);
  if (
    !/^\s*(#[^\n]*\n)*\s*\[Unit\]/m.test(desc.unit.content) ||
    !/^\[Service\]$/m.test(desc.unit.content) ||
    !/^ExecStart=/m.test(desc.unit.content)
  )
    problems.push({ path: ['unit', 'content'], reason: 'a unit needs [Unit] and [Service] sections with an ExecStart=' });

  for (const kind of ['liveness', 'readiness', 'functional'] as const) {
    const check = desc.checks[kind];
    const spec = paramNames(check.kind);
    for (const required of spec.required)
      if (!(required in check.params))
        problems.push({ path: ['checks', kind, 'params'], reason: `${check.kind} needs the parameter ${required}` });
    for (const [name, value] of Object.entries(check.params)) {
      const path: Path = ['checks', kind, 'params', name];
      if (!spec.required.includes(name) && !spec.optional.includes(name))
        problems.push({
          path,
          reason: `${name} is not a parameter of ${check.kind} (it takes ${[...spec.required, ...spec.optional].join(', ')})`,
        });
      checkParam(value, path, scope, portNames, problems);
    }
  }

  desc.versions.forEach((v, vi) => {
    duplicates(v.artifacts, 'name', ['versions', vi, 'artifacts'], 'artifact', problems);
    for (const k of Object.keys(v.settings))
      if (!settings.has(k))
        problems.push({
          path: ['versions', vi, 'settings', k],
          reason: `${k} is not among the service's settings (declared: ${[...settings].join(', ') || 'none'})`,
        });
    const u = v.upgrade;
    if (!u) return;
    u.from.forEach((f, i) => {
      const path: Path = ['versions', vi, 'upgrade', 'from', i];
      if (!versions.has(f))
        problems.push({ path, reason: `${f} is not a version of ${desc.service} (declared: ${[...versions].join(', ')})` });
      else if (compareVersions(f, v.version) >= 0)
        problems.push({ path, reason: `an upgrade to ${v.version} cannot start from ${f}, which is not older` });
    });
    duplicates(u.migrations, 'name', ['versions', vi, 'upgrade', 'migrations'], 'migration', problems);
    const irreversible = u.migrations.filter((m) => m.irreversible);
    if (u.rollback.possible && irreversible.length > 0)
      problems.push({
        path: ['versions', vi, 'upgrade', 'rollback'],
        reason: `rollback cannot be possible after the irreversible migration ${irreversible.map((m) => m.name).join(', ')}: declare {possible: false, reason}`,
      });
    if (u.stateful && !desc.stateful)
      problems.push({ path: ['versions', vi, 'upgrade', 'stateful'], reason: 'a stateless service has no stateful upgrade' });
    u.migrations.forEach((m, mi) =>
      m.run.forEach((argv, ai) =>
        argv.forEach((a, i) => checkTemplate(a, ['versions', vi, 'upgrade', 'migrations', mi, 'run', ai, i], scope, problems)),
      ),
    );
  });

  // An artifact is a file on every platform or a package (.deb) on every platform: the plan installs it one way.
  desc.versions.forEach((v, vi) =>
    v.artifacts.forEach((a, ai) => {
      const kinds = new Set(Object.values(a.platforms).flatMap((p) => (p?.available ? [p.source.debian.path === undefined] : [])));
      if (kinds.size > 1)
        problems.push({ path: ['versions', vi, 'artifacts', ai], reason: `${a.name} is a .deb on some platforms and a file on others` });
    }),
  );

  // The same artifact taken from the same package version and path must pin the same digest in every version.
  const pins = new Map<string, { digest: string; at: Path }>();
  desc.versions.forEach((v, vi) =>
    v.artifacts.forEach((a, ai) =>
      Object.entries(a.platforms).forEach(([arch, p]) => {
        if (!p || !p.available) return;
        const s = p.source.debian;
        const id = `${arch} ${s.package}=${s.version}:${s.path ?? '.deb'}`;
        const at: Path = ['versions', vi, 'artifacts', ai, 'platforms', arch, 'digest'];
        const seen = pins.get(id);
        if (seen && seen.digest !== p.digest)
          problems.push({ path: at, reason: `${id} is pinned to ${seen.digest} elsewhere in this file` });
        else pins.set(id, { digest: p.digest, at });
      }),
    ),
  );

  if (desc.stateful && !desc.backup)
    problems.push({ path: ['backup'], reason: 'a stateful service declares how it is backed up (backup: steps, files, restore)' });
  if (desc.backup) {
    const b = desc.backup;
    duplicates(b.files, 'name', ['backup', 'files'], 'backup file', problems);
    b.files.forEach((f, i) => {
      if (!f.path.startsWith('{{backup_dir}}/'))
        problems.push({ path: ['backup', 'files', i, 'path'], reason: 'a backup file lives under {{backup_dir}}/' });
      checkTemplate(f.path, ['backup', 'files', i, 'path'], { ...backupScope, files: new Set() }, problems);
    });
    const steps = (list: typeof b.steps, base: Path): void =>
      list.forEach((s, si) => {
        if ('run' in s) s.run.forEach((a, ai) => checkTemplate(a, [...base, si, 'run', ai], backupScope, problems));
      });
    steps(b.steps, ['backup', 'steps']);
    steps(b.restore.steps, ['backup', 'restore', 'steps']);
    b.verify?.run.forEach((a, ai) => checkTemplate(a, ['backup', 'verify', 'run', ai], backupScope, problems));
    // Each declared file must be written by a backup step.
    const written = JSON.stringify(b.steps);
    b.files.forEach((f, i) => {
      if (!written.includes(f.path.replace(/"/g, '\\"')))
        problems.push({ path: ['backup', 'files', i, 'path'], reason: `no backup step writes ${f.path}` });
    });
  }
  return problems;
}

function checkParam(value: CheckParamValue, path: Path, scope: NameScope, ports: Set<string>, problems: Problem[]): void {
  if (typeof value === 'number' || typeof value === 'boolean') return;
  if (typeof value === 'string') return checkTemplate(value, path, scope, problems);
  if ('port' in value) {
    if (!ports.has(value.port))
      problems.push({ path: [...path, 'port'], reason: `${value.port} is not a declared port (declared: ${[...ports].join(', ')})` });
    return;
  }
  if ('when_tls' in value) {
    for (const [name, t] of Object.entries(value.when_tls))
      if (t !== undefined) checkTemplate(t, [...path, 'when_tls', name], scope, problems);
    return;
  }
  // In each_member the member's fields are at the top of the view.
  let refs;
  try {
    refs = templateReferences(value.each_member).references;
  } catch (error) {
    problems.push({ path: [...path, 'each_member'], reason: `the template does not parse: ${(error as Error).message}` });
    return;
  }
  const memberFree = refs.filter((r) => !(MEMBER_FIELDS as readonly string[]).includes(r.name));
  checkTemplate(memberFree.map((r) => `{{${r.name}}}`).join(''), [...path, 'each_member'], scope, problems);
}

/** Across descriptors: one file per service, and no two services claiming one unit or one port of a host. */
export function crossCheckCatalog(entries: { file: string; desc: CatalogDescriptor }[]): { file: string; problem: Problem }[] {
  const out: { file: string; problem: Problem }[] = [];
  const services = new Map<string, string>();
  const units = new Map<string, string>();
  const ports = new Map<string, string>();
  for (const { file, desc } of entries) {
    const s = services.get(desc.service);
    if (s) out.push({ file, problem: { path: ['service'], reason: `${desc.service} is already described by ${s}` } });
    else services.set(desc.service, file);
    const u = units.get(desc.unit.name);
    if (u) out.push({ file, problem: { path: ['unit', 'name'], reason: `the unit ${desc.unit.name} is already ${u}'s` } });
    else units.set(desc.unit.name, desc.service);
    for (const [name, p] of Object.entries(desc.ports)) {
      const id = `${p.port}/${p.protocol}`;
      const other = ports.get(id);
      if (other && other !== desc.service)
        out.push({
          file,
          problem: {
            path: ['ports', name, 'port'],
            reason: `port ${id} is already ${other}'s: two services placed on one host would collide`,
          },
        });
      else ports.set(id, desc.service);
    }
  }
  for (const { file, desc } of entries)
    desc.depends_on.forEach((d, i) => {
      if (d === desc.service) out.push({ file, problem: { path: ['depends_on', i], reason: 'a service does not depend on itself' } });
      else if (!services.has(d)) out.push({ file, problem: { path: ['depends_on', i], reason: `the catalog has no service ${d}` } });
    });
  const cycle = dependencyCycle(entries.map((e) => e.desc));
  if (cycle) out.push({ file: services.get(cycle[0]!)!, problem: { path: ['depends_on'], reason: `a cycle: ${cycle.join(' → ')}` } });
  return out;
}

/** A cycle among the services' depends_on (its services in order, the first repeated last), or null. */
function dependencyCycle(descs: CatalogDescriptor[]): string[] | null {
  const deps = new Map(descs.map((d) => [d.service, d.depends_on]));
  const state = new Map<string, 'visiting' | 'done'>();
  const walk = (s: string, path: string[]): string[] | null => {
    if (state.get(s) === 'done') return null;
    if (state.get(s) === 'visiting') return [...path.slice(path.indexOf(s)), s];
    state.set(s, 'visiting');
    for (const d of deps.get(s) ?? []) {
      const c = walk(d, [...path, s]);
      if (c) return c;
    }
    state.set(s, 'done');
    return null;
  };
  for (const d of descs) {
    const c = walk(d.service, []);
    if (c) return c;
  }
  return null;
}
