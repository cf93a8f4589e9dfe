// Progress of long CLI work on stderr: a bar redrawn in place on a terminal, a line every tenth elsewhere
// (so logs of a script stay short).

export interface ProgressLine {
  update(done: number, total: number, label: string): void;
  end(): void;
}

const mb = (n: number): string => (n / 1_000_000).toFixed(1);

export function progressLine(stream: NodeJS.WriteStream = process.stderr): ProgressLine {
  const tty = stream.isTTY === true;
  let lastTenth = -1;
  let drawn = false;
  return {
    update(done, total, label) {
      const ratio = total > 0 ? Math.min(1, done / total) : 0;
      const pct = Math.floor(ratio * 100);
      if (tty) {
        const width = 30;
        const filled = Math.round(ratio * width);
        stream.write(
          `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${mb(done)}/${mb(total)} MB ${label}\x1b[K`,
        );
        drawn = true;
      } else if (Math.floor(pct / 10) !== lastTenth) {
        lastTenth = Math.floor(pct / 10);
        stream.write(`navin-manager: ${pct}% (${mb(done)}/${mb(total)} MB) ${label}\n`);
      }
    },
    end() {
      if (tty && drawn) stream.write('\n');
    },
  };
}
