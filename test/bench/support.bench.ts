// Support archive: building the tar.gz from 100 MB of journal lines, redacted, against the same archive with no
// redaction rule (tar + gzip only); and redaction throughput over 10 MB of logs against a plain copy of the bytes.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { Redactor } from '../../main/core/support/redact';
import { buildSupportArchive, type SupportEntry } from '../../main/core/support/support-archive';
import { tempDir } from '../support/temp-dir';

const dir = tempDir('navin-bench-support-');
const redaction = { secrets: ['Vault-Pass-91zq', 'db-Secret-7731'], userNames: ['alice', 'bob.martin', 'chloe'] };
const LINES = [
  'Dec 04 03:25:10 host-1 app[812]: connection from 198.18.0.12 port 51234 accepted',
  'Dec 04 03:25:11 host-1 app[812]: GET /api/v1/status 200 12ms',
  'Dec 04 03:25:12 host-1 app[812]: user alice opened a session, Authorization: Bearer Qm9vdHN0cmFwLXRva2VuLTEy',
  'Dec 04 03:25:13 host-1 postgres[901]: checkpoint complete: wrote 1834 buffers (11.2%); 0 WAL file(s) added',
  'Dec 04 03:25:14 host-1 app[812]: notify ops@example.org, +33 6 12 34 56 78',
  'Dec 04 03:25:15 host-1 app[812]: retrying upstream postgres://app:db-Secret-7731@db.internal/app in 5s',
  'Dec 04 03:25:16 host-1 nginx[640]: 2001:db8::7 - - "GET / HTTP/1.1" 200 612',
  'Dec 04 03:25:17 host-1 app[812]: worker 3 done in 41ms, queue depth 0',
];

function logOf(bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const line = LINES[i % LINES.length]!;
    parts.push(line);
    n += line.length + 1;
  }
  return `${parts.join('\n')}\n`;
}

const MB = 1 << 20;
const tenMb = logOf(10 * MB);
const entries: SupportEntry[] = Array.from({ length: 10 }, (_, i) => ({
  path: `journal/host-${i}/app.service.log`,
  kind: 'log',
  content: tenMb,
}));
let n = 0;
afterAll(() => dir.remove());

const opts = { iterations: 3, warmupIterations: 0, time: 0 };

describe('support archive, 100 MB of logs', () => {
  bench(
    'redacted tar.gz',
    async () => {
      const out = join(dir.path, `${n++}.tar.gz`);
      await buildSupportArchive(entries, { out, redaction });
      rmSync(out);
    },
    opts,
  );
  bench(
    'tar.gz of the same bytes, no redaction (baseline)',
    async () => {
      const out = join(dir.path, `${n++}.tar.gz`);
      await buildSupportArchive(entries, { out, redaction, rules: () => [] });
      rmSync(out);
    },
    opts,
  );
});

describe('redaction throughput, 10 MB of logs', () => {
  bench(
    'redact (every rule)',
    () => {
      const r = new Redactor(redaction);
      for (let at = 0; at < tenMb.length; at += MB) r.redact(tenMb.slice(at, at + MB), 'log', 'bench');
    },
    opts,
  );
  bench(
    'plain copy of the same bytes (baseline)',
    () => {
      for (let at = 0; at < tenMb.length; at += MB) Buffer.from(tenMb.slice(at, at + MB));
    },
    opts,
  );
});
