// What the node agent reads for the preflight's service checks: the TCP ports listened on (from the kernel's
// tables), the kernel settings and the tools the catalog may require.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { listeningPorts, readFacts, readFactsWithin } from '../../../agent/node/facts';
import { tempDir } from '../../support/temp-dir';
import { HOST_TOOLS } from '../../../main/wire/node-agent';

describe('node agent facts for the service preflight', () => {
  test('a port this process listens on is reported, and is gone once the server is closed', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    expect(listeningPorts()).toContain(port);
    await new Promise<void>((r) => server.close(() => r()));
    expect(listeningPorts()).not.toContain(port);
  });

  test('the facts carry fs.file-max as the kernel has it and whether each known tool is on the PATH', async () => {
    const facts = await readFacts();
    expect(facts.sysctl?.['fs.file-max']).toMatch(/^\d+$/);
    expect(Object.keys(facts.tools ?? {}).sort()).toEqual([...HOST_TOOLS].sort());
    expect(facts.tools?.mv).toBe(true);
    expect(Array.isArray(facts.listening_ports)).toBe(true);
  });

  test('a df that hangs (a dead network mount) fails the read with facts_timeout, and is not started again beside itself', async () => {
    const dir = tempDir('navin-df-');
    onTestFinished(dir.remove);
    const calls = join(dir.path, 'calls');
    writeFileSync(join(dir.path, 'df'), `#!/bin/sh\necho x >> ${calls}\nexec sleep 3\n`);
    chmodSync(join(dir.path, 'df'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${dir.path}:${path}`;
    onTestFinished(() => void (process.env.PATH = path));
    await expect(readFactsWithin(300)).rejects.toMatchObject({ code: 'facts_timeout' });
    await expect(readFactsWithin(300)).rejects.toMatchObject({ code: 'facts_timeout' });
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
