// The schema of the manager CA's rotation (issue 34): the rotation's state machine and the trust updates sent to
// each agent. Global version numbers after the modules before it; append only.
import type { Migration } from '../store/migrations';

export const caRotationMigrations: readonly Migration[] = [
  {
    version: 18,
    name: 'manager CA rotations and the trust updates sent to each agent',
    // One rotation is under way at most (checked when one starts). The new CA's key is sealed by the KeyProtector
    // like the CA's own. first_new_certificate is the certificates rowid from which the new CA issued (set when it
    // starts to): an agent holds a new-CA certificate when one of its live ones is at or past it. A step row keeps
    // the last command sent to one agent (host_id '' for a cluster agent) for one step; a retry replaces it.
    sql: `
      CREATE TABLE ca_rotations (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('started','serving-new','retiring','done')),
        old_cert_pem TEXT NOT NULL,
        old_sealed_key BLOB NOT NULL,
        new_cert_pem TEXT NOT NULL,
        new_sealed_key BLOB NOT NULL,
        first_new_certificate INTEGER,
        started_by TEXT NOT NULL,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
      );

      CREATE TABLE ca_rotation_steps (
        rotation_id TEXT NOT NULL REFERENCES ca_rotations(id),
        cluster_id TEXT NOT NULL,
        host_id TEXT NOT NULL,
        step TEXT NOT NULL CHECK (step IN ('trust-both','renew','trust-new')),
        command_id TEXT NOT NULL,
        issued_at TEXT NOT NULL,
        PRIMARY KEY (rotation_id, cluster_id, host_id, step)
      );
    `,
  },
];
