// The bodies of the services routes decoded into the typed requests the core takes: each field's JSON shape is
// checked here (400 invalid_field naming it); its value (a service and version of the catalog, hosts of the
// cluster, settings of their declared types) is judged by the core, which alone knows them.
import { z } from 'zod';
import { ApiError } from '../api-error';
import { objectBody } from '../body';
import type { IncomingBody } from '../router';
import type { ActionRequest, ApprovalRequest, ConfigureRequest, InstallRequest, UpgradeRequest } from '../../core/services/service-input';
import { SERVICE_ACTIONS } from '../../core/services/service-plan';

const HOSTS = 'hosts is a non-empty list of host ids or names of this cluster';
const CONFIG = 'config is an object of the service’s settings';

// An approval id that is not a non-empty string has always been read as none (the gate then asks for one).
const approvalId = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'string' && v.length > 0 ? v : undefined));

// No config (or null) is no setting; the settings' names and values are the catalog's to judge.
const settings = z
  .custom<Record<string, unknown> | null>((v) => v === null || (typeof v === 'object' && !Array.isArray(v)), { error: CONFIG })
  .optional()
  .transform((v) => v ?? undefined);

const install = z.object({
  service: z.string({ error: 'service is the name of a service of the catalog' }),
  version: z.string({ error: 'version is a version of the service in the catalog' }),
  hosts: z.array(z.string({ error: HOSTS }), { error: HOSTS }).min(1, { error: HOSTS }),
  config: settings,
  approval_id: approvalId,
});

const configure = z.object({ config: settings, approval_id: approvalId });

const UPGRADE_TO = 'the version to upgrade to';
const upgrade = z.object({
  version: z.string({ error: `version is ${UPGRADE_TO}` }).min(1, { error: `version is ${UPGRADE_TO}` }),
  approval_id: approvalId,
});

const action = z.object({
  action: z.enum(SERVICE_ACTIONS, { error: `action is one of ${SERVICE_ACTIONS.join(', ')}` }),
  approval_id: approvalId,
});

const approval = z.object({ approval_id: approvalId });

/** The body parsed by its schema; the first faulty field answers 400 invalid_field, named as the core named it. */
function decoded<T>(schema: z.ZodType<T>, body: IncomingBody<unknown>): T {
  const result = schema.safeParse(objectBody(body));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ApiError('invalid_field', issue.message, String(issue.path[0]));
}

export const installRequest = (body: IncomingBody<unknown>): InstallRequest => decoded(install, body);
export const configureRequest = (body: IncomingBody<unknown>): ConfigureRequest => decoded(configure, body);
export const upgradeRequest = (body: IncomingBody<unknown>): UpgradeRequest => decoded(upgrade, body);
export const actionRequest = (body: IncomingBody<unknown>): ActionRequest => decoded(action, body);
export const approvalRequest = (body: IncomingBody<unknown>): ApprovalRequest => decoded(approval, body);

/** The `to` of an upgrade's question: the version to upgrade to. */
export function upgradeTo(to: string | null): string {
  if (to === null || to === '') throw new ApiError('invalid_field', `to is ${UPGRADE_TO}`, 'to');
  return to;
}
