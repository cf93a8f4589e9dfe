// The catalog's templates (config files, systemd units, check parameters, backup steps) are Mustache: logic-less,
// no partials. The manager's own values (names, addresses, ports, paths) are written as they are (they are
// config files, not HTML); a setting is written by the encoder of the file it lands in, and a template with no
// file format (a path, an argv, a check parameter) refuses one. This module fixes the names a template may use,
// builds the values for one instance, and renders.
import { createHash } from 'node:crypto';
import Mustache from 'mustache';
import { ValidationError } from '../errors';
import type { CatalogDescriptor, CatalogStep, CatalogVersion, CheckParamValue } from './catalog-schema';
import { encodeSetting, type FileFormat } from './setting-encoders';
import { settingProblem, type SettingDecl, type SettingValue } from './setting-types';

/** Where Navin puts a service on a host; versions side by side, so a rollback switches back without a download. */
export const HOST_LAYOUT = {
  bin: (service: string, version: string, artifact: string): string => `/opt/navin/${service}/${version}/${artifact}`,
  data: (service: string): string => `/var/lib/navin/${service}`,
  config: (service: string): string => `/etc/navin/${service}`,
} as const;

export interface TemplateMember {
  name: string;
  address: string;
}

export interface TemplateInput {
  instance: TemplateMember & { data_dir?: string; config_dir?: string };
  /** Every instance of the service in the cluster (defaults to this one alone). */
  members?: TemplateMember[];
  cluster?: { name: string; token: string };
  tls?: { enabled: boolean; cert_file?: string; key_file?: string; ca_file?: string; credential_file?: string };
  /** For backup and restore steps: the folder of this backup set on the host. */
  backup_dir?: string;
  /** The operator's values over the service's defaults, under the version's own (checked against their types). */
  settings?: Record<string, SettingValue>;
}

/** The view a template is rendered with. */
export interface TemplateContext {
  service: { name: string; version: string; upstream_version: string; user: string };
  instance: { name: string; address: string; data_dir: string; config_dir: string };
  ports: Record<string, number>;
  bin: Record<string, string>;
  settings: Record<string, string | number | boolean>;
  /**
   * key_file is the key on the host (root's, 0600); credential_file where the service reads it: the copy systemd
   * hands a unit that says LoadCredential=tls.key:{{tls.key_file}} (its dynamic user cannot read root's file).
   */
  tls: { enabled: boolean; cert_file: string; key_file: string; ca_file: string; credential_file: string };
  scheme: 'http' | 'https';
  cluster: { name: string; token: string };
  clustered: boolean;
  members: (TemplateMember & { last: boolean })[];
  backup_dir: string;
  files: Record<string, string>;
  /** The settings' declarations, which their encoders read (not a template name). */
  setting_types: Record<string, SettingDecl>;
}

/** The top-level names, and what may follow them: `*` any declared key (checked against the descriptor). */
export const TEMPLATE_NAMES = {
  service: ['name', 'version', 'upstream_version', 'user'],
  instance: ['name', 'address', 'data_dir', 'config_dir'],
  ports: '*',
  bin: '*',
  settings: '*',
  tls: ['enabled', 'cert_file', 'key_file', 'ca_file', 'credential_file'],
  scheme: null,
  cluster: ['name', 'token'],
  clustered: null,
  members: null,
  backup_dir: null,
  files: '*',
} as const;
/** Inside `{{#members}}…{{/members}}`: the fields of one member. */
export const MEMBER_FIELDS = ['name', 'address', 'last'] as const;

export interface TemplateReference {
  /** The dotted name, e.g. `ports.client`. */
  name: string;
  /** The section names enclosing it, outermost first. */
  sections: string[];
}

type Token = [string, string, number, number, Token[]?];

/** Every name a template refers to (variables and sections), or the Mustache parse error. */
export function templateReferences(template: string): { references: TemplateReference[]; partials: boolean } {
  const references: TemplateReference[] = [];
  let partials = false;
  const walk = (tokens: Token[], sections: string[]): void => {
    for (const t of tokens) {
      const [type, value] = t;
      if (type === 'name' || type === '&') references.push({ name: value, sections });
      else if (type === '#' || type === '^') {
        references.push({ name: value, sections });
        walk(t[4] ?? [], [...sections, value]);
      } else if (type === '>') partials = true;
    }
  };
  walk(Mustache.parse(template) as unknown as Token[], []);
  return { references, partials };
}

/** Mustache's writer, with `{{settings.x}}` written by the encoder of the file's format (or refused without one). */
class SettingWriter extends Mustache.Writer {
  constructor(
    private readonly format: FileFormat | null,
    private readonly types: Record<string, SettingDecl>,
  ) {
    super();
  }

  private encoded(token: string[], context: Mustache.Context): string {
    const name = token[1]!;
    // Mustache writes nothing for a missing value and joins the rest as text, as its own writer does.
    const value = context.lookup(name) as unknown;
    if (!name.startsWith('settings.')) return value as string;
    const key = name.slice('settings.'.length);
    const decl = this.types[key];
    if (!this.format || !decl) throw new Error(`{{${name}}} cannot be written here: only a config file or an ExecStart= takes a setting`);
    if (value === undefined || value === null) return value as unknown as string;
    // Judged again here: a configuration recorded before its type was declared is re-applied by a rollback.
    const problem = settingProblem(decl, value);
    if (problem) throw new ValidationError('config', `setting ${key} (${decl.type}): ${problem}`);
    return encodeSetting(this.format, decl, value as SettingValue);
  }

  override escapedValue(token: string[], context: Mustache.Context): string {
    return this.encoded(token, context);
  }

  override unescapedValue(token: string[], context: Mustache.Context): string {
    return this.encoded(token, context);
  }
}

/** Renders a template; `format` is the file it makes, whose encoder writes the settings. */
export function renderTemplate(template: string, view: TemplateContext, format: FileFormat | null = null): string {
  return new SettingWriter(format, view.setting_types ?? {}).render(template, view, {}, { escape: (s: string) => s });
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export function templateContext(desc: CatalogDescriptor, version: CatalogVersion, input: TemplateInput): TemplateContext {
  const members =
    input.members && input.members.length > 0 ? input.members : [{ name: input.instance.name, address: input.instance.address }];
  const tlsEnabled = input.tls?.enabled === true;
  const configDir = input.instance.config_dir ?? HOST_LAYOUT.config(desc.service);
  const ctx: TemplateContext = {
    service: { name: desc.service, version: version.version, upstream_version: version.upstream, user: desc.system_user },
    instance: {
      name: input.instance.name,
      address: input.instance.address,
      data_dir: input.instance.data_dir ?? HOST_LAYOUT.data(desc.service),
      config_dir: configDir,
    },
    ports: Object.fromEntries(Object.entries(desc.ports).map(([k, p]) => [k, p.port])),
    bin: Object.fromEntries(version.artifacts.map((a) => [a.name, HOST_LAYOUT.bin(desc.service, version.version, a.name)])),
    settings: {
      ...Object.fromEntries(Object.entries(desc.settings).map(([k, d]) => [k, d.default])),
      ...input.settings,
      ...version.settings,
    },
    tls: {
      enabled: tlsEnabled,
      cert_file: input.tls?.cert_file ?? `${configDir}/tls/tls.crt`,
      key_file: input.tls?.key_file ?? `${configDir}/tls/tls.key`,
      ca_file: input.tls?.ca_file ?? `${configDir}/tls/ca.crt`,
      credential_file: input.tls?.credential_file ?? `/run/credentials/${desc.unit.name}/tls.key`,
    },
    scheme: tlsEnabled ? 'https' : 'http',
    cluster: input.cluster ?? { name: desc.service, token: `navin-${desc.service}` },
    clustered: members.length > 1,
    members: members.map((m, i) => ({ name: m.name, address: m.address, last: i === members.length - 1 })),
    backup_dir: input.backup_dir ?? '',
    files: {},
    setting_types: desc.settings,
  };
  if (desc.backup) for (const f of desc.backup.files) ctx.files[f.name] = renderTemplate(f.path, ctx);
  return ctx;
}

export interface RenderedFile {
  name: string;
  path: string;
  mode: string;
  content: string;
  sha256: string;
}

/** The config files and the unit of one instance, each with the sha256 the plan records for drift detection. */
export function renderInstance(desc: CatalogDescriptor, ctx: TemplateContext): { files: RenderedFile[]; unit: RenderedFile } {
  const files = desc.files.map((f) => {
    const content = renderTemplate(f.content, ctx, f.format === 'text' ? null : f.format);
    return { name: f.name, path: renderTemplate(f.path, ctx), mode: f.mode, content, sha256: sha256Hex(content) };
  });
  const unitContent = renderTemplate(desc.unit.content, ctx, 'systemd');
  return {
    files,
    unit: {
      name: desc.unit.name,
      path: `/etc/systemd/system/${desc.unit.name}`,
      mode: '0644',
      content: unitContent,
      sha256: sha256Hex(unitContent),
    },
  };
}

export type RenderedParam = string | number | boolean | string[] | Record<string, string>;

/**
 * A check's parameters for one instance: ports resolved to numbers, templates rendered, member lists expanded; a
 * `when_tls` block (the files a check connects with) only when the instance serves TLS, else left out.
 */
export function renderCheckParams(params: Record<string, CheckParamValue>, ctx: TemplateContext): Record<string, RenderedParam> {
  const out: Record<string, RenderedParam> = {};
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else if (typeof v === 'string') out[k] = renderTemplate(v, ctx);
    else if ('port' in v) out[k] = ctx.ports[v.port]!;
    else if ('when_tls' in v) {
      if (ctx.tls.enabled)
        out[k] = Object.fromEntries(Object.entries(v.when_tls).map(([name, t]) => [name, renderTemplate(t, ctx).trim()]));
    } else out[k] = ctx.members.map((m) => renderTemplate(v.each_member, { ...ctx, ...m } as unknown as TemplateContext));
  }
  return out;
}

export type RenderedStep = { name: string; run: string[]; timeout_s?: number } | { name: string; unit: 'stop' | 'start' | 'restart' };

/** An argument that is one section, e.g. `{{#tls.enabled}}--cacert={{tls.ca_file}}{{/tls.enabled}}`: a flag of a mode. */
const WHOLLY_CONDITIONAL = /^\{\{([#^])\s*([\w.]+)\s*\}\}[\s\S]*\{\{\/\s*\2\s*\}\}$/;

/** The argv of a step for one instance; an argument that is one section rendering nothing is left out, not passed empty. */
export function renderArgv(argv: readonly string[], ctx: TemplateContext): string[] {
  return argv.flatMap((a) => {
    const out = renderTemplate(a, ctx);
    return out === '' && WHOLLY_CONDITIONAL.test(a) ? [] : [out];
  });
}

export function renderSteps(steps: CatalogStep[], ctx: TemplateContext): RenderedStep[] {
  return steps.map((s) =>
    'unit' in s
      ? { name: s.name, unit: s.unit }
      : { name: s.name, run: renderArgv(s.run, ctx), ...(s.timeout_s ? { timeout_s: s.timeout_s } : {}) },
  );
}
