// Services of hosts clusters: what the console installed where, with the latest liveness (per instance),
// readiness and functional test the agents ran; the operations (install, configuration, actions) as phases of
// signed plans followed task by task.
import type { PlanView } from './hosts';
import type { ObservedChecks } from './sheet-types';

export type { CheckOutcome } from '../wire/service-checks';

export type ServiceState = 'installing' | 'running' | 'stopped' | 'failed' | 'uninstalling';
export type ServiceSettings = Record<string, string | number | boolean>;
export type ServiceOperationAction =
  'install' | 'configuration' | 'realign' | 'upgrade' | 'rollback' | 'backup' | 'restore' | ServiceAction;
export type ServiceAction = 'start' | 'stop' | 'restart' | 'uninstall' | 'functional_test' | 'check';

/** Per host id for liveness; the first host's readiness and functional test. */
export type ServiceCheckResults = ObservedChecks;

export interface OperationView {
  id: string;
  cluster_id: string;
  service: string;
  action: string;
  version: string;
  state: 'running' | 'succeeded' | 'failed';
  code: string | null;
  message: string | null;
  /** The phase running now, or the last one run. */
  phase: number;
  phases: { name: string; hosts: string[]; plans: (PlanView & { host_name: string })[] }[];
  progress: { done: number; total: number };
  requested_by: string;
  created_at: string;
  finished_at: string | null;
}

export interface ServiceView {
  service: string;
  title: string;
  version: string;
  state: ServiceState;
  hosts: { id: string; name: string; address: string }[];
  config: ServiceSettings;
  /** The configuration version in effect (1 at install, one more per configuration or rollback). */
  config_version: number | null;
  checks: ServiceCheckResults | null;
  checks_at: string | null;
  /** The newest operation on the service. */
  operation: OperationView | null;
  created_at: string;
  updated_at: string;
}

export interface ServiceInstall {
  service: string;
  version: string;
  /** Host ids or names of the cluster; the first runs the readiness and functional test. */
  hosts: string[];
  config?: ServiceSettings;
  approval_id?: string;
}

export interface ServiceConfigure {
  config: ServiceSettings;
  approval_id?: string;
}

export interface ServiceActionRequest {
  action: ServiceAction;
  approval_id?: string;
}

/** What an upgrade involves, from the catalog: compatibility, migrations (irreversible ones named), rollback. */
export interface UpgradeAnswer {
  compatible: boolean;
  problems: string[];
  from: string;
  to: string;
  stateful: boolean;
  migrations: { name: string; description: string; irreversible: boolean; run: string[][] }[];
  irreversible: string[];
  rollback: { possible: true } | { possible: false; reason: string } | null;
}

/** A numbered configuration of a service: the settings an install, a configuration or a rollback applied. */
export interface ServiceConfigVersion {
  cluster_id: string;
  service: string;
  number: number;
  config: ServiceSettings;
  operation_id: string;
  /** A rollback's: the version it brought back. */
  restored_from: number | null;
  created_at: string;
}

export interface ServiceRoutes {
  'GET /api/v1/clusters/:id/services': { result: { items: ServiceView[] } };
  'POST /api/v1/clusters/:id/services': { body: ServiceInstall; result: OperationView };
  'GET /api/v1/clusters/:id/services/:service': { result: ServiceView };
  'PUT /api/v1/clusters/:id/services/:service/config': { body: ServiceConfigure; result: OperationView };
  'POST /api/v1/clusters/:id/services/:service/actions': { body: ServiceActionRequest; result: OperationView };
  'GET /api/v1/clusters/:id/services/:service/operations': { query: { limit?: number }; result: { items: OperationView[] } };
  'GET /api/v1/clusters/:id/services/:service/config-versions': { result: { items: ServiceConfigVersion[] } };
  'GET /api/v1/operations/:id': { result: OperationView };
  'GET /api/v1/clusters/:id/services/:service/upgrade': { query: { to: string }; result: UpgradeAnswer };
  /** Canary first, the rollback sealed before anything runs; a failure rolls back the hosts it touched. */
  'POST /api/v1/clusters/:id/services/:service/upgrade': { body: { version: string; approval_id?: string }; result: OperationView };
  /** Back to the version the last upgrade started from; refused (rollback_refused) with the reason when it cannot be. */
  'POST /api/v1/clusters/:id/services/:service/rollback': { body: { approval_id?: string }; result: OperationView };
}
