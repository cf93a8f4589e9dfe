// An agent's JSON log lines, read from its stdout, and a wait for an event among them: what every test that
// runs an agent as a process needs.

export type LogLine = Record<string, unknown>;

export interface AgentLogs {
  logs(): LogLine[];
  waitFor(event: string, match?: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

/** Collects an agent's JSON log lines from a stream and waits for events in them. */
export function logCollector(name: string, stream: NodeJS.ReadableStream, lines: LogLine[] = [], also?: LogLine[]): AgentLogs {
  const waiters = new Set<() => void>();
  let buf = '';
  stream.on('data', (c: Buffer) => {
    buf += c.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        parsed = { event: 'unparsed', line };
      }
      lines.push(parsed);
      also?.push(parsed);
      for (const w of [...waiters]) w();
    }
  });
  return {
    logs: () => lines,
    waitFor(event, match = () => true, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = lines.find((l) => l.event === event && match(l));
          if (hit) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(hit);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${name}: no ${event} within ${timeoutMs} ms; logs:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
