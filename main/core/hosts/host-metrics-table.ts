// SQL for the samples of host figures the node agents report: one row per host and report, kept for a day.
import type { Db } from '../store/database';
import type { HostMetricsSample, UnitObservation } from '../../wire/node-agent';

/** A report's sample as kept: the host's figures and each managed unit's cgroup CPU and memory. */
export interface StoredMetricsSample extends HostMetricsSample {
  units: Record<string, Pick<UnitObservation, 'cpu_ns' | 'memory_bytes' | 'active_state'>>;
}

export class HostMetricsTable {
  constructor(private readonly db: Db) {}

  /**
   * Adds a sample, unless the host has one later than `notAfter` (samples are spaced, however often an agent
   * reports), and drops the host's samples older than `keepFrom`.
   */
  add(hostId: string, sample: StoredMetricsSample, keepFrom: string, notAfter = sample.at): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO host_metric_samples (host_id, at, sample)
         SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM host_metric_samples WHERE host_id = ? AND at > ?)`,
      )
      .run(hostId, sample.at, JSON.stringify(sample), hostId, notAfter);
    this.db.prepare('DELETE FROM host_metric_samples WHERE host_id = ? AND at < ?').run(hostId, keepFrom);
  }

  /** A host's samples from `since` on, oldest first. */
  since(hostId: string, since: string): StoredMetricsSample[] {
    return (
      this.db.prepare('SELECT sample FROM host_metric_samples WHERE host_id = ? AND at >= ? ORDER BY at').all(hostId, since) as {
        sample: string;
      }[]
    ).map((r) => JSON.parse(r.sample) as StoredMetricsSample);
  }
}
