// What synchronous=FULL (the store's setting: the WAL is fsynced at every commit) costs against NORMAL (synced
// only at checkpoints, so an OS crash can drop acknowledged commits), on the same audit appends, same disk.
import { bench, describe } from 'vitest';
import { join } from 'node:path';
import { openDomainTables } from '../../main/core/domain-tables';
import { MODULES } from '../../main/core/modules';
import { Store } from '../../main/core/store/store';
import { ManualClock } from '../support/clock';
import { tempDir } from '../support/temp-dir';

const dir = tempDir('navin-bench-');
const full = Store.open(join(dir.path, 'full.db'), new ManualClock());
const normal = Store.open(join(dir.path, 'normal.db'), new ManualClock());
normal.db.pragma('synchronous = NORMAL');
if (full.db.pragma('synchronous', { simple: true }) !== 2) throw new Error('the store is expected to open with synchronous=FULL');

const entry = {
  actor: 'alice',
  action: 'cluster.update',
  cluster_id: 'c-0001',
  target: 'edge-paris-1',
  details: { after: { description: 'b' } },
};
const BATCH = 100;

describe('audit append, one row per transaction (one API change)', () => {
  bench('synchronous=FULL (the store)', () => {
    full.tx(() => full.audit.append(entry));
  });
  bench('synchronous=NORMAL (baseline)', () => {
    normal.tx(() => normal.audit.append(entry));
  });
});

describe(`audit append, ${BATCH} rows per transaction`, () => {
  bench('synchronous=FULL (the store)', () => {
    full.tx(() => {
      for (let i = 0; i < BATCH; i++) full.audit.append(entry);
    });
  });
  bench('synchronous=NORMAL (baseline)', () => {
    normal.tx(() => {
      for (let i = 0; i < BATCH; i++) normal.audit.append(entry);
    });
  });
});

const fullTables = openDomainTables(full.db, MODULES);
const status = { cluster_id: 'c-0001', last_seen: '', agent_version: '0.1.0', leader_replica: 'a', certificate_serial: '01' };
full.db.exec("INSERT INTO clusters (id, name, tenant, state, created_at, updated_at) VALUES ('c-0001', 'c', 'default', 'pending', '', '')");

describe('agent heartbeat (last seen, written at every poll)', () => {
  bench('Store.bookkeeping: synchronous=NORMAL for this write (the gateway)', () => {
    full.bookkeeping(() => fullTables.commands.upsertAgentStatus({ ...status, last_seen: new Date().toISOString() }));
  });
  bench('synchronous=FULL (baseline: the store default)', () => {
    fullTables.commands.upsertAgentStatus({ ...status, last_seen: new Date().toISOString() });
  });
});
