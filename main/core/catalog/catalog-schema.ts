// The schema of a catalog descriptor (resources/catalog/<service>.yaml), in zod: what a service declares for
// the plans (artifacts, templates, ports, minimums, preflight), the checks, upgrades and backups. Structure
// only; what needs the whole descriptor (names that refer to each other) is in catalog-cross-checks.ts.
import { z } from 'zod';
import { kindsFor } from '../../wire/service-checks';
import { SettingDeclaration } from './setting-types';

export const CATALOG_SCHEMA_ID = 'navin.catalog/v1';

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
/** Versions are mirror tags: `<upstream>-<our packaging revision>`, e.g. 3.4.23-1. */
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+(-[0-9]+)?$/;
const UPSTREAM = /^[0-9]+\.[0-9]+\.[0-9]+([-+.][0-9A-Za-z.+-]+)?$/;
const QUANTITY_CPU = /^([0-9]+m|[0-9]+(\.[0-9]+)?)$/;
const QUANTITY_MEMORY = /^[0-9]+(Ki|Mi|Gi|Ti)$/;
const SHA256 = /^sha256:[a-f0-9]{64}$/;
const SYSCTL = /^[a-z0-9_]+(\.[a-z0-9_-]+)+$/;
const MODE = /^0[0-7]{3}$/;
const ABSOLUTE_OR_TEMPLATE = /^(\/|\{\{)/;

const name = (what: string) => z.string().regex(NAME, `${what} is a lowercase name (letters, digits, "-")`);
const text = z.string().min(1).max(2000);
const template = z.string().min(1).max(65_536);

export const ARCHITECTURES = ['amd64', 'arm64'] as const;

/**
 * A file from inside a Debian package (path), or without path the package's .deb itself: the host installs it
 * offline with dpkg (a packages.install task), beside the version's other packages.
 */
const DebianSource = z.strictObject({
  package: z.string().regex(/^[a-z0-9][a-z0-9+.-]+$/, 'a Debian package name'),
  version: z.string().min(1).max(100),
  path: z.string().regex(/^\//, 'an absolute path inside the package').optional(),
});

/** One file of one architecture: pinned by digest with where the bundle builder takes it from, or absent with why. */
const AvailablePlatform = z.strictObject({
  available: z.literal(true).default(true),
  digest: z.string().regex(SHA256, 'a digest is sha256:<64 lowercase hex digits>'),
  size: z.number().int().positive(),
  source: z.strictObject({ debian: DebianSource }),
});
const UnavailablePlatform = z.strictObject({
  available: z.literal(false),
  reason: text,
});
const Platform = z.union([AvailablePlatform, UnavailablePlatform], {
  error: 'a platform is either {digest, size, source} or {available: false, reason}',
});

const Artifact = z.strictObject({
  name: name('an artifact name'),
  description: text.optional(),
  /** Unix mode of the installed file, e.g. "0755". */
  mode: z.string().regex(MODE, 'a mode is four octal digits, e.g. "0755"').default('0755'),
  platforms: z.partialRecord(z.enum(ARCHITECTURES), Platform).refine((p) => Object.keys(p).length > 0, 'at least one architecture'),
});

const Migration = z.strictObject({
  name: name('a migration name'),
  description: text,
  irreversible: z.boolean().default(false),
  /** The commands of the migration (argv, each element a template), run with the service stopped. */
  run: z.array(z.array(template).min(1)).default([]),
});

const Rollback = z.union([z.strictObject({ possible: z.literal(true) }), z.strictObject({ possible: z.literal(false), reason: text })]);

const Upgrade = z.strictObject({
  /** The versions an upgrade to this one may start from. */
  from: z.array(z.string().regex(VERSION)).min(1),
  /** The data carries over (a backup is taken first). */
  stateful: z.boolean(),
  migrations: z.array(Migration).default([]),
  rollback: Rollback,
});

const Version = z.strictObject({
  version: z.string().regex(VERSION, 'a version is <upstream x.y.z>-<our packaging revision>, e.g. 3.4.23-1'),
  /** The upstream project's version, recorded beside ours. */
  upstream: z.string().regex(UPSTREAM, 'the upstream version, e.g. 3.4.23'),
  released: z.iso.date().optional(),
  notes: text.optional(),
  /** Values for the templates' `settings.<name>`, over the service's defaults. */
  settings: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), z.union([z.string(), z.number(), z.boolean()])).default({}),
  artifacts: z.array(Artifact).min(1),
  upgrade: Upgrade.optional(),
});

const Port = z.strictObject({
  port: z.number().int().min(1).max(65535),
  protocol: z.enum(['tcp', 'udp']).default('tcp'),
  description: text,
  /** The port serves TLS when the profile asks for it. */
  tls: z.boolean().default(false),
});

/**
 * A check parameter: a literal, a template, a declared port ({port: name}), a list over the members, or the files
 * a check connects with when the service serves TLS ({when_tls: {...}}, left out of a plaintext instance's check).
 */
const CheckParam = z.union([
  z.number(),
  z.boolean(),
  template,
  z.strictObject({ port: name('a port name') }),
  z.strictObject({ each_member: template }),
  z.strictObject({
    when_tls: z.strictObject({
      ca_file: template,
      cert_file: template.optional(),
      key_file: template.optional(),
      server_name: template.optional(),
    }),
  }),
]);
const checkOf = <K extends readonly [string, ...string[]]>(kinds: K) =>
  z.strictObject({
    kind: z.enum(kinds, { error: `the kind is one of ${kinds.join(', ')}` }),
    params: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), CheckParam).default({}),
    interval_s: z.number().int().min(1).max(3600).optional(),
    timeout_s: z.number().int().min(1).max(600).optional(),
  });

const FileTemplate = z.strictObject({
  name: name('a file name'),
  path: z.string().regex(ABSOLUTE_OR_TEMPLATE, 'an absolute path (may start with a template such as {{instance.config_dir}})'),
  mode: z.string().regex(MODE).default('0640'),
  /** How the file reads values: settings are written by its encoder, and only a file with a format takes them. */
  format: z.enum(['yaml', 'nats', 'json', 'text']).default('text'),
  content: template,
});

const Step = z.union([
  z.strictObject({ name: name('a step name'), run: z.array(template).min(1), timeout_s: z.number().int().min(1).max(3600).optional() }),
  z.strictObject({ name: name('a step name'), unit: z.enum(['stop', 'start', 'restart']) }),
]);

const Backup = z.strictObject({
  description: text,
  steps: z.array(Step).min(1),
  /** The files a backup produces, each recorded with its sha256. */
  files: z
    .array(z.strictObject({ name: name('a backup file name'), path: z.string().regex(ABSOLUTE_OR_TEMPLATE), description: text.optional() }))
    .min(1),
  restore: z.strictObject({ description: text, steps: z.array(Step).min(1), limits: text.optional() }),
  verify: z.strictObject({ run: z.array(template).min(1), description: text }).optional(),
});

export const Descriptor = z.strictObject({
  schema: z.literal(CATALOG_SCHEMA_ID),
  service: name('the service name'),
  title: text,
  description: text,
  homepage: z.url().optional(),
  /** The service keeps data (etcd, NATS JetStream); its upgrades take a backup first. */
  stateful: z.boolean(),
  /** The service can serve TLS on its endpoints (the profiles' TLS rules). */
  supports_tls: z.boolean(),
  /** Services this one needs running first: backups and restores go in this order (dependencies first). */
  depends_on: z.array(name('a service name')).default([]),
  /** The Unix account the service runs as on a host. */
  system_user: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/),
  /**
   * The units a service's Debian packages bring, which its own unit replaces: disabled and stopped once the
   * packages are installed, so they neither hold its ports nor start at boot.
   */
  replaces_units: z.array(z.string().regex(/^[a-z0-9][a-z0-9@._-]{0,99}\.service$/, 'a systemd service unit')).optional(),
  ports: z.record(name('a port name'), Port),
  resources: z.strictObject({
    min_cpu: z.string().regex(QUANTITY_CPU, 'CPU as a Kubernetes quantity, e.g. 500m or 1'),
    min_memory: z.string().regex(QUANTITY_MEMORY, 'memory as a Kubernetes quantity, e.g. 512Mi'),
    min_disk: z.string().regex(QUANTITY_MEMORY).optional(),
  }),
  preflight: z.strictObject({
    /** Names of declared ports that must be free on the host before an install. */
    free_ports: z.array(name('a port name')).default([]),
    kernel: z
      .array(
        z
          .strictObject({
            key: z.string().regex(SYSCTL, 'a sysctl key, e.g. fs.file-max'),
            min: z.number().int().optional(),
            equals: z.union([z.number().int(), z.string()]).optional(),
            why: text,
          })
          .refine((k) => (k.min === undefined) !== (k.equals === undefined), 'a kernel setting has exactly one of min or equals'),
      )
      .default([]),
    /** Commands that must be on the host's PATH. */
    tools: z.array(z.string().regex(/^[a-z0-9][a-z0-9._+-]*$/)).default([]),
  }),
  /** Each setting with its type and default: values are checked by the type (setting-types.ts) before any use. */
  settings: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), SettingDeclaration).default({}),
  files: z.array(FileTemplate).default([]),
  unit: z.strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9@._-]*\.service$/, 'a systemd unit name ending in .service'),
    content: template,
  }),
  checks: z.strictObject({
    liveness: checkOf(kindsFor('liveness')),
    readiness: checkOf(kindsFor('readiness')),
    functional: checkOf(kindsFor('functional')),
  }),
  backup: Backup.optional(),
  /**
   * The service is the host's metrics exporter (Prometheus node exporter text format): while its unit is watched,
   * the node agent reads the host's CPU, memory and file system figures from this URL with each report.
   */
  host_metrics: z.strictObject({ url: template }).optional(),
  versions: z.array(Version).min(1),
});

export type CatalogDescriptor = z.infer<typeof Descriptor>;
export type CatalogVersion = CatalogDescriptor['versions'][number];
export type CatalogArtifact = CatalogVersion['artifacts'][number];
export type CatalogPlatform = z.infer<typeof Platform>;
export type CatalogUpgrade = NonNullable<CatalogVersion['upgrade']>;
export type CatalogMigration = CatalogUpgrade['migrations'][number];
export type CatalogBackup = NonNullable<CatalogDescriptor['backup']>;
export type CatalogCheck = CatalogDescriptor['checks']['liveness'];
export type CatalogStep = z.infer<typeof Step>;
export type CheckParamValue = z.infer<typeof CheckParam>;
export type CatalogFileTemplate = z.infer<typeof FileTemplate>;
