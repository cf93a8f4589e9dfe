// One JSON line per event on stdout, as container logs expect. Never pass a key or a token in fields.

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export function log(event: string, fields: LogFields = {}, level: 'info' | 'warn' | 'error' = 'info'): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
}
