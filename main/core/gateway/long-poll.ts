// Held long polls, per cluster: woken at once when a command is queued in this process, when another process
// commits to the database (PRAGMA data_version), or when a delivered command becomes due for redelivery.

export interface Waiter {
  clusterId: string;
  wake(): void;
  /** Judges the poll's certificate again (news of its agent): cheaper than wake, which delivers. */
  revalidate?(): void;
}

export class LongPolls {
  private readonly byCluster = new Map<string, Set<Waiter>>();
  private readonly sweep: NodeJS.Timeout;
  private lastVersion: number;

  constructor(
    private readonly dataVersion: () => number,
    sweepMs = 1000,
  ) {
    this.lastVersion = dataVersion();
    this.sweep = setInterval(() => {
      const v = this.dataVersion();
      if (v !== this.lastVersion) {
        this.lastVersion = v;
        this.wakeAll();
      }
    }, sweepMs);
    this.sweep.unref();
  }

  get size(): number {
    let n = 0;
    for (const s of this.byCluster.values()) n += s.size;
    return n;
  }

  add(w: Waiter): () => void {
    let set = this.byCluster.get(w.clusterId);
    if (!set) this.byCluster.set(w.clusterId, (set = new Set()));
    set.add(w);
    return () => {
      set.delete(w);
      if (set.size === 0) this.byCluster.delete(w.clusterId);
    };
  }

  wake(clusterId: string): void {
    for (const w of [...(this.byCluster.get(clusterId) ?? [])]) w.wake();
  }

  revalidate(clusterId: string): void {
    for (const w of [...(this.byCluster.get(clusterId) ?? [])]) w.revalidate?.();
  }

  wakeAll(): void {
    for (const id of [...this.byCluster.keys()]) this.wake(id);
  }

  close(): void {
    clearInterval(this.sweep);
    this.wakeAll();
  }
}
