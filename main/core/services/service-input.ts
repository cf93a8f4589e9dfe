// What an operation's request names, judged against the catalog and the cluster: the service as installed, the
// hosts by id or name, the settings by their declared types. The request's shape was decoded by its route
// (the contract's schemas, main/contract/services.ts) into the typed requests below.
import type { Tables } from '../domain-tables';
import type { z } from 'zod';
import type {
  approvalOnlySchema,
  serviceActionSchema,
  serviceConfigureSchema,
  serviceInstallSchema,
  serviceUpgradeSchema,
} from '../../contract/services';
import type { Catalog } from '../catalog/catalog';
import { settingProblem } from '../catalog/setting-types';
import { CoreError, ValidationError } from '../errors';
import type { HostRecord } from '../hosts/hosts-tables';
import type { ServiceRecord, ServiceSettings } from './services-tables';

export function requireCatalog(catalog: () => Catalog | null): Catalog {
  const c = catalog();
  if (!c) throw new CoreError('catalog_invalid', 'the service catalog is invalid: see the catalog_valid rule');
  return c;
}

export function installedService(tables: Tables<'hosts' | 'services'>, clusterId: string, service: string): ServiceRecord {
  const r = tables.services.get(clusterId, service);
  if (!r) throw new CoreError('service_not_installed', `${service} is not installed on this cluster`);
  return r;
}

/** The cluster's hosts named by id or name, each once. */
export function resolveHosts(tables: Tables<'hosts' | 'services'>, clusterId: string, names: readonly string[]): HostRecord[] {
  const all = tables.hosts.list(clusterId);
  const out = names.map((v) => {
    const h = all.find((x) => x.id === v || x.name === v.toLowerCase());
    if (!h) throw new ValidationError('hosts', `this cluster has no host ${v}`);
    return h;
  });
  if (new Set(out.map((h) => h.id)).size !== out.length) throw new ValidationError('hosts', 'a host is named twice');
  return out;
}

/** The settings given, each a declared setting of the service and of its declared type. */
export function checkedSettings(catalog: Catalog, service: string, given: Readonly<Record<string, unknown>> | undefined): ServiceSettings {
  if (given === undefined) return {};
  const declared = catalog.service(service)!.settings;
  const out: ServiceSettings = {};
  for (const [k, v] of Object.entries(given)) {
    if (!Object.hasOwn(declared, k))
      throw new ValidationError('config', `${service} has no setting ${k} (it has: ${Object.keys(declared).join(', ') || 'none'})`);
    // Judged by its declared type before anything else reads it: a template never sees a value of another shape.
    const problem = settingProblem(declared[k]!, v);
    if (problem) throw new ValidationError('config', `setting ${k} (${declared[k]!.type}): ${problem}`);
    out[k] = v as string | number | boolean;
  }
  return out;
}

/** The requests of the services routes as their contract's schemas parsed them; their values are judged here. */
export type InstallRequest = z.output<typeof serviceInstallSchema>;
export type ConfigureRequest = z.output<typeof serviceConfigureSchema>;
export type UpgradeRequest = z.output<typeof serviceUpgradeSchema>;
export type ActionRequest = z.output<typeof serviceActionSchema>;
export type ApprovalRequest = z.output<typeof approvalOnlySchema>;
