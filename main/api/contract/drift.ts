// Drift of hosts clusters: the findings (a managed file or unit modified, deleted or replaced outside the
// console), the config_drift alert while any is open, the cluster's mode (realign, or report only during a change
// freeze), a scan on demand, and realigning a finding's service through the lifecycle gate.
import type { OperationView } from './services';

export type DriftMode = 'realign' | 'report_only';

export interface DriftFindingView {
  id: string;
  cluster_id: string;
  host_id: string;
  host_name: string;
  path: string;
  kind: 'file' | 'unit';
  state: 'modified' | 'deleted' | 'replaced';
  expected_sha256: string;
  observed_sha256: string | null;
  /** What stands there instead (a symlink's target, …). */
  detail: string | null;
  /** The command that last wrote the file as the console meant it. */
  command_id: string;
  detected_at: string;
  last_seen_at: string;
  resolved_at: string | null;
  resolution: 'restored' | 'realigned' | 'removed' | null;
  service: string | null;
}

export interface DriftView {
  cluster_id: string;
  mode: DriftMode;
  alert: { code: 'config_drift'; open_findings: number; since: string } | null;
  findings: DriftFindingView[];
  scanned?: { hosts: string[]; unanswered: string[] };
}

export interface DriftRoutes {
  'GET /api/v1/clusters/:id/drift': { result: DriftView };
  'POST /api/v1/clusters/:id/drift/scan': { result: DriftView };
  'PUT /api/v1/clusters/:id/drift/mode': { body: { mode: DriftMode }; result: DriftView };
  'POST /api/v1/drift/findings/:id/realign': { body: { approval_id?: string }; result: OperationView };
}
