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
  /**
   * Calls `write` when this sighting must be written (always for the first of an agent, its key, in this
   * process); the sighting counts as written once `write` has returned, so a failed write is tried again.
   */
  note(key: string, nowMs: number, sighting: Sighting, write: () => void): void;
  /** How many agents are remembered: only those written within the interval. */
  readonly tracked: number;
}

interface Written {
  at: number;
  version: string | null;
  leader: string | null;
  serial: string | null;
}

export function lastSeenWrites(everyMs = LAST_SEEN_WRITE_EVERY_MS): LastSeenWrites {
  const written = new Map<string, Written>();
  let sweptAt = -Infinity;
  // An entry older than the interval decides nothing (its next sighting is due anyway): dropped, once an
  // interval, so agents gone for good are not remembered for the life of the process.
  const sweep = (nowMs: number): void => {
    if (nowMs - sweptAt < everyMs && nowMs >= sweptAt) return;
    sweptAt = nowMs;
    for (const [key, w] of written) if (nowMs - w.at >= everyMs) written.delete(key);
  };
  return {
    note(key, nowMs, s, write) {
      sweep(nowMs);
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
      if (!changed && nowMs - prev.at < everyMs && nowMs >= prev.at) return;
      write();
      written.set(key, next);
    },
    get tracked() {
      return written.size;
    },
  };
}
