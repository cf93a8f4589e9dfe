import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSLOG_CURSOR_KEY, SyslogForwarder } from '../../../../main/core/audit/syslog-forwarder';
import { clearSyslogTarget, setSyslogTarget } from '../../../../main/core/audit/syslog-settings';
import { openDomainTables, type DomainTables } from '../../../../main/core/domain-tables';
import { MODULES } from '../../../../main/core/modules';
import { Store } from '../../../../main/core/store/store';
import { ManualClock } from '../../../support/clock';
import { startSyslogListener, type SyslogListener } from '../../../support/syslog-listener';
import { tempDir } from '../../../support/temp-dir';

const seqOf = (m: string): number => Number(/ seq="(\d+)"/.exec(m)![1]);

describe('SyslogForwarder', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let tables: DomainTables;
  const clock = new ManualClock();
  const listeners: SyslogListener[] = [];
  const forwarders: SyslogForwarder[] = [];

  const listen = async (transport: 'tcp' | 'udp', port?: number): Promise<SyslogListener> => {
    const l = await startSyslogListener(transport, port);
    listeners.push(l);
    return l;
  };
  const forwarder = (): SyslogForwarder => {
    const f = new SyslogForwarder({ store, tables, clock, hostname: 'mgr-test', intervalMs: 50, timeoutMs: 2000 });
    forwarders.push(f);
    return f;
  };
  const append = (n: number): void => {
    for (let i = 0; i < n; i++)
      store.tx(() => store.audit.append({ actor: 'alice', action: 'cluster.update', target: `c-${i}`, details: { i } }));
  };

  beforeEach(() => {
    dir = tempDir('navin-syslog-');
    store = Store.open(join(dir.path, 'navin.db'), clock);
    tables = openDomainTables(store.db, MODULES);
  });
  afterEach(async () => {
    await Promise.all(forwarders.splice(0).map((f) => f.stop()));
    await Promise.all(listeners.splice(0).map((l) => l.stop().catch(() => undefined)));
    store.close();
    dir.remove();
  });

  for (const transport of ['tcp', 'udp'] as const) {
    it(`delivers every audit row in order over ${transport}, the setting change included`, async () => {
      const l = await listen(transport);
      append(3);
      setSyslogTarget(store, tables, { host: '127.0.0.1', port: l.port, transport }, 'admin'); // row 4
      append(2);
      const f = forwarder();
      await f.flush();
      const got = await l.waitFor(6);
      expect(got.map(seqOf)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(got[3]).toContain(' settings.syslog [navin@32473 seq="4" actor="admin"');
      expect(f.status()).toMatchObject({
        target: `${transport}://127.0.0.1:${l.port}`,
        forwarded_seq: 6,
        pending: 0,
        consecutive_failures: 0,
      });
    });

    it(`loses nothing over ${transport} while the listener is down and sends the rows when it is back`, async () => {
      const first = await listen(transport);
      const port = first.port;
      setSyslogTarget(store, tables, { host: '127.0.0.1', port, transport }, 'admin');
      const f = forwarder();
      await f.flush();
      await first.waitFor(1);
      await first.stop();

      // One row alone first: over UDP only the port-unreachable that comes back after the send can reveal the loss.
      append(1);
      await expect(f.flush()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      append(3);
      await expect(f.flush()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(f.status()).toMatchObject({ forwarded_seq: 1, pending: 4, consecutive_failures: 2, last_error: { code: 'ECONNREFUSED' } });
      expect(tables.settings.getJson(SYSLOG_CURSOR_KEY)).toEqual({ target: `${transport}://127.0.0.1:${port}`, seq: 1 });

      const back = await listen(transport, port);
      f.start();
      const got = await back.waitFor(4, 10_000);
      expect(got.map(seqOf)).toEqual([2, 3, 4, 5]);
      await f.stop();
      expect(f.status()).toMatchObject({ forwarded_seq: 5, pending: 0, consecutive_failures: 0, running: false });
    });
  }

  it('resumes from the stored cursor after a restart, sending only what the target has not had', async () => {
    const l = await listen('tcp');
    setSyslogTarget(store, tables, { host: '127.0.0.1', port: l.port, transport: 'tcp' }, 'admin');
    append(2);
    await forwarder().flush();
    await l.waitFor(3);
    append(2);
    await forwarder().flush(); // a new process: same store, new forwarder
    const got = await l.waitFor(5);
    expect(got.map(seqOf)).toEqual([1, 2, 3, 4, 5]);
  });

  it('sends the whole log to a new target, and nothing when none is configured', async () => {
    const a = await listen('tcp');
    const b = await listen('tcp');
    const f = forwarder();
    append(2);
    await f.flush();
    expect(f.status()).toMatchObject({ target: null, pending: 0 });
    setSyslogTarget(store, tables, { host: '127.0.0.1', port: a.port, transport: 'tcp' }, 'admin');
    await f.flush();
    expect((await a.waitFor(3)).map(seqOf)).toEqual([1, 2, 3]);
    setSyslogTarget(store, tables, { host: '127.0.0.1', port: b.port, transport: 'tcp' }, 'admin');
    await f.flush();
    expect((await b.waitFor(4)).map(seqOf)).toEqual([1, 2, 3, 4]);
    clearSyslogTarget(store, tables, 'admin');
    append(1);
    await f.flush();
    expect(b.messages).toHaveLength(4);
  });
});
