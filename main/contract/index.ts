// The console API contract: every route of /api/v1 with its query, body and result, one file per family.
// The router types each handler by it, preload/api.ts re-exports it for the renderer, whose client is typed
// by it too. Adding a family: a file here with its schemas (`<family>RouteSchemas`, its types by `z.infer`) and
// its `…Routes` type (`RoutesOf<typeof …>`), listed below and, for the schemas, in ROUTE_SCHEMAS.
import { approvalRouteSchemas, type ApprovalRoutes } from './approvals';
import { auditRouteSchemas, type AuditRoutes } from './audit';
import { backupRouteSchemas, type BackupRoutes } from './backups';
import { caRotationRouteSchemas, type CaRotationRoutes } from './ca-rotation';
import { catalogRouteSchemas, type CatalogRoutes } from './catalog';
import { certificateRouteSchemas, type CertificateRoutes } from './certificates';
import { clusterRouteSchemas, type ClusterRoutes } from './clusters';
import { commandRouteSchemas, type CommandRoutes } from './commands';
import { driftRouteSchemas, type DriftRoutes } from './drift';
import { hostRouteSchemas, type HostRoutes } from './hosts';
import { keyRouteSchemas, type KeyRoutes } from './keys';
import { kubernetesRouteSchemas, type KubernetesRoutes } from './kubernetes';
import { mirrorRouteSchemas, type MirrorRoutes } from './mirror';
import { profileRouteSchemas, type ProfileRoutes } from './profiles';
import { reportRouteSchemas, type ReportRoutes } from './reports';
import { serviceRouteSchemas, type ServiceRoutes } from './services';
import { serviceBackupRouteSchemas, type ServiceBackupRoutes } from './service-backups';
import { serviceSheetRouteSchemas, type ServiceSheetRoutes } from './service-sheet';
import type { Method } from './route';
import { sessionRouteSchemas, type SessionRoutes } from './session';
import { supportRouteSchemas, type SupportRoutes } from './support';
import { settingsRouteSchemas, type SettingsRoutes } from './settings';
import { systemRouteSchemas, type SystemRoutes } from './system';
import { tokenRouteSchemas, type TokenRoutes } from './tokens';
import { userRouteSchemas, type UserRoutes } from './users';

export type * from './approvals';
export type * from './audit';
export type * from './backups';
export type * from './ca-rotation';
export type * from './catalog';
export type * from './certificates';
export type * from './checks';
export type * from './clusters';
export type * from './commands';
export type * from './drift';
export type * from './errors';
export type * from './hosts';
export type * from './keys';
export type * from './kubernetes';
export type * from './mirror';
export type * from './profiles';
export type * from './service-sheet';
export type * from './reports';
export type * from './route';
export type * from './services';
export type * from './service-backups';
export type * from './session';
export type * from './support';
export type * from './settings';
export type * from './system';
export type * from './tokens';
export type * from './users';

/** Every route, keyed `METHOD /pattern` (`:name` segments are path parameters). */
export interface ApiRoutes
  extends
    SystemRoutes,
    SessionRoutes,
    UserRoutes,
    TokenRoutes,
    ClusterRoutes,
    HostRoutes,
    ServiceRoutes,
    ServiceBackupRoutes,
    ServiceSheetRoutes,
    DriftRoutes,
    SupportRoutes,
    KubernetesRoutes,
    CommandRoutes,
    AuditRoutes,
    KeyRoutes,
    CertificateRoutes,
    CaRotationRoutes,
    ReportRoutes,
    ProfileRoutes,
    ApprovalRoutes,
    BackupRoutes,
    SettingsRoutes,
    CatalogRoutes,
    MirrorRoutes {}

export type RouteKey = keyof ApiRoutes & string;

/** The patterns declared for a method. */
export type PatternOf<M extends Method> = RouteKey extends infer K ? (K extends `${M} ${infer P}` ? P : never) : never;

/** The declaration of `METHOD pattern`. */
export type RouteOf<M extends Method, P extends string> = `${M} ${P}` extends RouteKey ? ApiRoutes[`${M} ${P}`] : never;

/** Every route with its schemas: the router parses its input with them. */
export type RouteSchemaTable = { [K in RouteKey]: ApiRoutes[K]['schemas'] };

/** Every family is listed here, or the table's type (which needs each route) does not compile. */
export const ROUTE_SCHEMAS: RouteSchemaTable = {
  ...reportRouteSchemas,
  ...profileRouteSchemas,
  ...catalogRouteSchemas,
  ...auditRouteSchemas,
  ...clusterRouteSchemas,
  ...hostRouteSchemas,
  ...commandRouteSchemas,
  ...kubernetesRouteSchemas,
  ...serviceBackupRouteSchemas,
  ...backupRouteSchemas,
  ...serviceRouteSchemas,
  ...serviceSheetRouteSchemas,
  ...mirrorRouteSchemas,
  ...systemRouteSchemas,
  ...sessionRouteSchemas,
  ...approvalRouteSchemas,
  ...tokenRouteSchemas,
  ...userRouteSchemas,
  ...keyRouteSchemas,
  ...certificateRouteSchemas,
  ...caRotationRouteSchemas,
  ...settingsRouteSchemas,
  ...driftRouteSchemas,
  ...supportRouteSchemas,
};
