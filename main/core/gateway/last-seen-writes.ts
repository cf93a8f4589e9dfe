// When an agent's last-seen record is worth writing: at most once a second per agent (a cluster's, a host's) for
// the time alone, at once when what it records besides changes. A command's round trip seen twice (its poll, its
// receipt) wrote the record twice, a fifth of its WAL pages; its readers judge presence over tens of seconds.

/** How stale the stored last-seen time may be while the agent is in touch. */
export const LAST_SEEN_WRITE_EVERY_MS = 1000;

/** What a sighting records besides the time; a version or leader left out keeps the stored one. */
export interface Sighting {
  agent_version: string | null;
  leader_replica?: string | null;
  certificate_serial: string | null;
}

export interface LastSeenWrites {
  /** Whether this sighting must be written; true for the first of each agent (its key) in this process. */
  due(key: string, nowMs: number, sighting: Sighting): boolean;
}

export function lastSeenWrites(everyMs = LAST_SEEN_WRITE_EVERY_MS): LastSeenWrites {
  const written = new Map<string, { at: number; version: string | null; leader: string | null; serial: string | null }>();
  return {
    due(key, nowMs, s) {
      const prev = written.get(key);
      // The stored record keeps a version or leader a sighting leaves out (coalesce): only a new one is news.
      const next = {
        at: nowMs,
        version: s.agent_version ?? prev?.version ?? null,
        leader: s.leader_replica ?? prev?.leader ?? null,
        serial: s.certificate_serial,
      };
      const changed = !prev || prev.version !== next.version || prev.leader !== next.leader || prev.serial !== next.serial;
      // A clock set back writes too: the stored time must not stay ahead of the sightings.
      if (!changed && nowMs - prev.at < everyMs && nowMs >= prev.at) return false;
      written.set(key, next);
      return true;
    },
  };
}
