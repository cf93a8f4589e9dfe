// The store's ledger of schema migrations, versions 1-16: released, so append only and never edited. A domain
// adds its tables by migrations of its own folder, numbered after these and given by its module (core/modules.ts).

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE clusters (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        description TEXT NOT NULL DEFAULT '',
        tenant TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending','connected','offline','revoked')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('viewer','operator','admin')),
        password_hash TEXT NOT NULL,
        failed_logins INTEGER NOT NULL DEFAULT 0,
        locked_until TEXT,
        created_at TEXT NOT NULL
      );

      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf_token TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );

      CREATE TABLE api_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL
      );

      CREATE TABLE tickets (
        token_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('setup','login')),
        user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
        expires_at TEXT NOT NULL
      );

      CREATE TABLE audit_log (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        cluster_id TEXT,
        target TEXT,
        details TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX audit_log_cluster ON audit_log(cluster_id);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

      CREATE TABLE signing_keys (
        key_id TEXT PRIMARY KEY,
        public_key BLOB NOT NULL,
        sealed_seed BLOB NOT NULL,
        created_at TEXT NOT NULL,
        retired_at TEXT
      );

      CREATE TABLE ca (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        cert_pem TEXT NOT NULL,
        sealed_key BLOB NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE certificates (
        serial TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('console','gateway','client')),
        cluster_id TEXT,
        subject TEXT NOT NULL,
        not_before TEXT NOT NULL,
        not_after TEXT NOT NULL,
        issued_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX certificates_cluster ON certificates(cluster_id);

      CREATE TABLE nonces (nonce TEXT PRIMARY KEY, keep_until TEXT NOT NULL);
      CREATE INDEX nonces_keep_until ON nonces(keep_until);
    `,
  },
  {
    version: 2,
    name: 'cluster access and inventory',
    sql: `
      CREATE TABLE cluster_access (
        cluster_id TEXT PRIMARY KEY REFERENCES clusters(id) ON DELETE CASCADE,
        server TEXT NOT NULL,
        ca_pem TEXT,
        tls_server_name TEXT,
        sealed_token BLOB NOT NULL,
        namespace TEXT NOT NULL,
        kubernetes_version TEXT NOT NULL,
        registered_at TEXT NOT NULL
      );

      CREATE TABLE inventory_snapshots (
        id INTEGER PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        taken_at TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('import','agent')),
        data TEXT NOT NULL
      );
      CREATE INDEX inventory_snapshots_cluster ON inventory_snapshots(cluster_id, id);
    `,
  },
  {
    version: 3,
    name: 'commands, receipts and agent status',
    sql: `
      CREATE TABLE commands (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        op TEXT NOT NULL,
        args TEXT NOT NULL,
        envelope TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued','delivered','succeeded','failed','rejected')),
        code TEXT,
        result TEXT,
        requested_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        not_after TEXT NOT NULL,
        delivered_at TEXT,
        deliveries INTEGER NOT NULL DEFAULT 0,
        completed_at TEXT
      );
      CREATE INDEX commands_pending ON commands(cluster_id, state, delivered_at);
      CREATE INDEX commands_created ON commands(created_at);

      CREATE TABLE receipts (
        id INTEGER PRIMARY KEY,
        command_id TEXT NOT NULL REFERENCES commands(id) ON DELETE CASCADE,
        cluster_id TEXT NOT NULL,
        received_at TEXT NOT NULL,
        status TEXT NOT NULL,
        code TEXT,
        replica TEXT,
        body TEXT NOT NULL
      );
      CREATE INDEX receipts_command ON receipts(command_id);

      CREATE TABLE agent_status (
        cluster_id TEXT PRIMARY KEY REFERENCES clusters(id) ON DELETE CASCADE,
        last_seen TEXT NOT NULL,
        agent_version TEXT,
        leader_replica TEXT,
        certificate_serial TEXT
      );

      CREATE TABLE desired_state (
        cluster_id TEXT PRIMARY KEY REFERENCES clusters(id) ON DELETE CASCADE,
        generation INTEGER NOT NULL,
        components TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'signed acceptance reports',
    // No foreign key to clusters: a signed report is evidence and outlives the cluster record it describes.
    // A stored report is never rewritten (its signature covers the document as it was signed).
    sql: `
      CREATE TABLE reports (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL,
        cluster_name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('PASS','FAIL','BLOCKED')),
        key_id TEXT NOT NULL,
        document TEXT NOT NULL
      );
      CREATE INDEX reports_cluster ON reports(cluster_id, created_at);
      CREATE INDEX reports_created ON reports(created_at);
      CREATE TRIGGER reports_no_update BEFORE UPDATE ON reports
        BEGIN SELECT RAISE(ABORT, 'a signed report is never rewritten'); END;
    `,
  },
  {
    version: 5,
    name: 'profiles, MFA, approvals, preflight runs and backups',
    // A cluster's profile decides which rules gate its operations; development keeps the behaviour of clusters
    // created before profiles existed. TOTP secrets are sealed like every other secret.
    sql: `
      ALTER TABLE clusters ADD COLUMN profile TEXT NOT NULL DEFAULT 'development'
        CHECK (profile IN ('development','standard','banking-secure','air-gapped','hybrid'));
      ALTER TABLE clusters ADD COLUMN fqdn TEXT;
      ALTER TABLE clusters ADD COLUMN address TEXT;

      ALTER TABLE users ADD COLUMN totp_sealed_secret BLOB;
      ALTER TABLE users ADD COLUMN totp_confirmed_at TEXT;
      ALTER TABLE users ADD COLUMN totp_last_step INTEGER;

      CREATE TABLE recovery_codes (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        used_at TEXT,
        PRIMARY KEY (user_id, code_hash)
      );

      CREATE TABLE mfa_challenges (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        expires_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0
      );

      CREATE TABLE approvals (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        action TEXT NOT NULL,
        service TEXT NOT NULL,
        reason TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending','approved','rejected','used')),
        requested_by TEXT NOT NULL,
        requested_at TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT,
        decision_note TEXT,
        expires_at TEXT,
        used_at TEXT,
        used_by_command TEXT
      );
      CREATE INDEX approvals_cluster ON approvals(cluster_id, requested_at);

      CREATE TABLE preflight_runs (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        trigger TEXT NOT NULL CHECK (trigger IN ('on_demand','install','upgrade','report')),
        target TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('pass','warn','fail')),
        checks TEXT NOT NULL,
        run_by TEXT NOT NULL
      );
      CREATE INDEX preflight_runs_cluster ON preflight_runs(cluster_id, started_at);

      CREATE TABLE backup_sets (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        source TEXT NOT NULL,
        generation INTEGER NOT NULL
      );
      CREATE INDEX backup_sets_cluster ON backup_sets(cluster_id, created_at);

      CREATE TABLE backup_files (
        set_id TEXT NOT NULL REFERENCES backup_sets(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        file TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        PRIMARY KEY (set_id, name)
      );
    `,
  },
  {
    version: 6,
    name: 'mirror bundles',
    sql: `
      -- Release public keys the isolated side trusts to sign offline bundles (never the manager's own keys).
      CREATE TABLE release_keys (
        key_id TEXT PRIMARY KEY,
        public_key BLOB NOT NULL,
        label TEXT NOT NULL,
        added_at TEXT NOT NULL,
        added_by TEXT NOT NULL
      );

      -- Each import of an offline bundle into the mirror, with how it ended.
      CREATE TABLE mirror_imports (
        id TEXT PRIMARY KEY,
        bundle_file TEXT NOT NULL,
        bundle_id TEXT,
        key_id TEXT,
        mirror_url TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running','done','refused','failed')),
        code TEXT,
        message TEXT,
        result TEXT,
        started_by TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        -- The process running the import: one found dead at start did not finish.
        pid INTEGER NOT NULL
      );
      CREATE INDEX mirror_imports_started ON mirror_imports(started_at);
    `,
  },
  {
    version: 7,
    name: 'hosts clusters, node agents and plan progress',
    sql: `
      ALTER TABLE clusters ADD COLUMN kind TEXT NOT NULL DEFAULT 'kubernetes' CHECK (kind IN ('kubernetes','hosts'));

      CREATE TABLE hosts (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        address TEXT NOT NULL,
        facts TEXT,
        facts_at TEXT,
        managed TEXT,
        agent_version TEXT,
        last_seen TEXT,
        certificate_serial TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (cluster_id, name)
      );
      CREATE INDEX hosts_cluster ON hosts(cluster_id, name);

      ALTER TABLE certificates ADD COLUMN host_id TEXT;
      CREATE INDEX certificates_host ON certificates(host_id);

      ALTER TABLE commands ADD COLUMN host_id TEXT REFERENCES hosts(id) ON DELETE CASCADE;
      CREATE INDEX commands_host ON commands(host_id, state, delivered_at);

      CREATE TABLE plan_tasks (
        command_id TEXT NOT NULL REFERENCES commands(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        task_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running','succeeded','failed','skipped')),
        started_at TEXT,
        finished_at TEXT,
        code TEXT,
        message TEXT,
        body TEXT NOT NULL,
        PRIMARY KEY (command_id, idx)
      );
    `,
  },
  {
    version: 8,
    name: 'API tokens with an id, an expiry and a revocation',
    // Tokens made before had no lifetime: they get the default one (90 days) from the upgrade on, rather than
    // living for ever or dying at once. The hash stays the lookup key; the id is what lists and revocations name.
    sql: `
      CREATE TABLE api_tokens_next (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT,
        revoked_by TEXT
      );
      INSERT INTO api_tokens_next (id, token_hash, user_id, name, created_at, created_by, expires_at)
        SELECT lower(hex(randomblob(8))), token_hash, user_id, NULL, created_at, 'unknown',
               strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+90 days')
        FROM api_tokens;
      DROP TABLE api_tokens;
      ALTER TABLE api_tokens_next RENAME TO api_tokens;
      CREATE INDEX api_tokens_user ON api_tokens(user_id, created_at);
    `,
  },
  {
    version: 9,
    name: 'services on hosts clusters, their operations and their check results',
    // A service is what the console installed on a hosts cluster (one row per cluster and service); an operation is
    // one install, configuration or action, carried out as phases of signed plans (the plans themselves are commands).
    sql: `
      CREATE TABLE services (
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        service TEXT NOT NULL,
        version TEXT NOT NULL,
        hosts TEXT NOT NULL,
        config TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('installing','running','stopped','failed','uninstalling')),
        checks TEXT,
        checks_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (cluster_id, service)
      );

      CREATE TABLE service_operations (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        service TEXT NOT NULL,
        action TEXT NOT NULL,
        version TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running','succeeded','failed')),
        code TEXT,
        message TEXT,
        phases TEXT NOT NULL,
        phase INTEGER NOT NULL DEFAULT 0,
        plans TEXT NOT NULL DEFAULT '[]',
        requested_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX service_operations_service ON service_operations(cluster_id, service, created_at);
      CREATE INDEX service_operations_running ON service_operations(state) WHERE state = 'running';
    `,
  },
  {
    version: 10,
    name: 'drift findings of hosts clusters and their report-only mode',
    // A finding is one managed file or unit found changed outside the console, open until a scan finds it right
    // again (put back by hand, or rewritten by the console) or it is no longer managed (removed with its service).
    sql: `
      ALTER TABLE clusters ADD COLUMN drift_mode TEXT NOT NULL DEFAULT 'realign' CHECK (drift_mode IN ('realign','report_only'));

      CREATE TABLE drift_findings (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('file','unit')),
        state TEXT NOT NULL CHECK (state IN ('modified','deleted','replaced')),
        expected_sha256 TEXT NOT NULL,
        observed_sha256 TEXT,
        detail TEXT,
        command_id TEXT NOT NULL,
        detected_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        resolved_at TEXT,
        resolution TEXT CHECK (resolution IN ('restored','realigned','removed'))
      );
      CREATE INDEX drift_findings_open ON drift_findings(cluster_id, host_id, path) WHERE resolved_at IS NULL;
      CREATE INDEX drift_findings_cluster ON drift_findings(cluster_id, detected_at);
    `,
  },
  {
    version: 11,
    name: 'upgrades: the version an operation started from and the rollback plans sealed with it',
    sql: `
      ALTER TABLE service_operations ADD COLUMN from_version TEXT;
      ALTER TABLE service_operations ADD COLUMN sealed TEXT;
    `,
  },
  {
    version: 12,
    name: 'backup sets of hosts clusters, the backup of each service with the sha256 of its files',
    // A set is one "Back up now" (its services backed up in dependency order) or the backup an upgrade of a
    // stateful service takes first; the operation that took or restores a backup names its set.
    sql: `
      CREATE TABLE service_backup_sets (
        id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        services TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ('manual','upgrade')),
        state TEXT NOT NULL CHECK (state IN ('running','succeeded','failed')),
        code TEXT,
        message TEXT,
        requested_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX service_backup_sets_cluster ON service_backup_sets(cluster_id, created_at);

      CREATE TABLE service_backups (
        set_id TEXT NOT NULL REFERENCES service_backup_sets(id) ON DELETE CASCADE,
        service TEXT NOT NULL,
        version TEXT NOT NULL,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        dir TEXT NOT NULL,
        files TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (set_id, service)
      );

      ALTER TABLE service_operations ADD COLUMN backup_set_id TEXT;
    `,
  },
  {
    version: 13,
    name: 'configuration versions of the services of hosts clusters',
    // Each install and configuration records the settings as a new numbered version; a rollback records the
    // version that stood when its upgrade started as a new one, restored from the old.
    sql: `
      CREATE TABLE service_config_versions (
        cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
        service TEXT NOT NULL,
        number INTEGER NOT NULL,
        config TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        restored_from INTEGER,
        created_at TEXT NOT NULL,
        PRIMARY KEY (cluster_id, service, number)
      );
    `,
  },
  {
    version: 14,
    name: 'what the node agents observe: each managed unit as systemd has it, and samples of the host figures',
    // The units are the latest report's (one JSON per host, like the facts); the samples keep a day per host,
    // each the host's CPU counters, memory and root file system with its units' CPU and memory.
    sql: `
      ALTER TABLE hosts ADD COLUMN units TEXT;
      CREATE TABLE host_metric_samples (
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        sample TEXT NOT NULL,
        PRIMARY KEY (host_id, at)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 15,
    name: 'the host index of commands holds host commands only',
    // A cluster agent's command (no host) had an entry there too, and each of its three commits (queued,
    // delivered, closed) wrote that index's page for nothing. Every query by host says host_id = ?, which
    // implies host_id IS NOT NULL, so SQLite still uses the partial index for them.
    sql: `
      DROP INDEX commands_host;
      CREATE INDEX commands_host ON commands(host_id, state, delivered_at) WHERE host_id IS NOT NULL;
    `,
  },
  {
    version: 16,
    name: 'approvals of acts outside a cluster, bound to the digest of the exact request',
    // Creating an admin or trusting a release key concerns no cluster: cluster_id becomes optional, which SQLite
    // only allows by copying the table. change is the canonical JSON of what was approved, digest its sha256.
    sql: `
      CREATE TABLE approvals_v16 (
        id TEXT PRIMARY KEY,
        cluster_id TEXT REFERENCES clusters(id) ON DELETE CASCADE,
        action TEXT NOT NULL,
        service TEXT NOT NULL,
        reason TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending','approved','rejected','used')),
        requested_by TEXT NOT NULL,
        requested_at TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT,
        decision_note TEXT,
        expires_at TEXT,
        used_at TEXT,
        used_by_command TEXT,
        change TEXT,
        digest TEXT
      );
      INSERT INTO approvals_v16 (id, cluster_id, action, service, reason, state, requested_by, requested_at, decided_by,
        decided_at, decision_note, expires_at, used_at, used_by_command)
        SELECT id, cluster_id, action, service, reason, state, requested_by, requested_at, decided_by, decided_at,
          decision_note, expires_at, used_at, used_by_command FROM approvals;
      DROP TABLE approvals;
      ALTER TABLE approvals_v16 RENAME TO approvals;
      CREATE INDEX approvals_cluster ON approvals(cluster_id, requested_at);
      CREATE INDEX approvals_requested ON approvals(requested_at);
    `,
  },
];
