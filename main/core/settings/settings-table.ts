// SQL for the console settings that are one JSON document each (syslog target, DNS servers, the syslog
// forwarder's cursor). The mirror keeps its own rows (reports-table.ts).
import type { Db } from '../store/database';

export class SettingsTable {
  constructor(private readonly db: Db) {}

  getJson<T>(key: string): T | null {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : null;
  }

  /** Writes the value, or removes the row for null. */
  setJson(key: string, value: unknown): void {
    if (value === null || value === undefined) this.db.prepare('DELETE FROM settings WHERE key = ?').run(key);
    else
      this.db
        .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
        .run(key, JSON.stringify(value));
  }
}
