// The node agent's durable state in one JSON file (0600): nonces, receipts, unsent receipts, the plans under
// way task by task, and every file and unit it manages with its sha256. Each write goes to a temp file that is
// synced and renamed over the old one, then the folder is synced: a crash leaves the old state or the new one.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LivenessWatch, ManagedEntry } from '../../main/wire/node-agent';
import type { PlanArgs, TaskOutcome } from '../../main/wire/plan';
import { pruneState, StateCorrupt, type AgentStateBase, type AgentStateStore } from '../state';
import { writeAtomic } from './managed-fs';

/** A plan accepted and not finished yet: its args and the outcome of each task started. */
export interface PlanRun {
  args: PlanArgs;
  accepted_at: string;
  tasks: TaskOutcome[];
}

export interface NodeState extends AgentStateBase {
  plans: Record<string, PlanRun>;
  managed: { files: Record<string, ManagedEntry>; units: Record<string, ManagedEntry> };
  /** The liveness checks the agent runs on its own, per unit (a state written before they existed has none). */
  watches: Record<string, LivenessWatch>;
}

export const STATE_FILE = 'state.json';
const empty = (): NodeState => ({ nonces: {}, receipts: {}, unsent: [], plans: {}, managed: { files: {}, units: {} }, watches: {} });

export class FileStateStore implements AgentStateStore<NodeState> {
  state: NodeState = empty();
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  get file(): string {
    return join(this.dir, STATE_FILE);
  }

  /** Reads the file; a missing one is an empty state, a corrupt one stops the agent rather than forget nonces. */
  async load(): Promise<NodeState> {
    await this.writing;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.state = empty();
      return this.state;
    }
    let parsed: Partial<NodeState>;
    try {
      parsed = JSON.parse(text) as Partial<NodeState>;
    } catch (error) {
      throw new StateCorrupt(`${this.file} is not valid JSON (${(error as Error).message}); move it aside to start afresh`);
    }
    const base = empty();
    this.state = { ...base, ...parsed, managed: { ...base.managed, ...parsed.managed } };
    return this.state;
  }

  /** One write at a time, each applied to the state the previous one left. */
  update(change: (s: NodeState) => void): Promise<void> {
    const next = this.writing.then(() => {
      const s = JSON.parse(JSON.stringify(this.state)) as NodeState;
      change(s);
      pruneState(s);
      writeAtomic(join(this.dir, STATE_FILE), Buffer.from(`${JSON.stringify(s)}\n`), 0o600);
      this.state = s;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }
}
