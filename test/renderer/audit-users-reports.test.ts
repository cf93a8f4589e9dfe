import { describe, expect, it } from 'vitest';
import type { AuditRow } from '../../renderer/src/api/types';
import { createAuditStore } from '../../renderer/src/features/audit/store';
import { createPaletteStore, rankEntries, type PaletteEntry } from '../../renderer/src/features/palette/store';
import { createReportsStore, pickText, readVerifiedPayload, type ReportCheck } from '../../renderer/src/features/reports/store';
import { createUsersStore } from '../../renderer/src/features/settings/usersStore';
import { FakeApi, alice, apiError, makeClient } from './support/fake-api';

const row = (seq: number): AuditRow => ({
  seq,
  at: '2026-01-01T00:00:00Z',
  actor: 'alice',
  action: 'cluster.create',
  cluster_id: null,
  target: null,
  details: {},
  prev_hash: '0',
  hash: '1',
});

describe('audit store', () => {
  it('searches by actor, cluster and action, and pages with before_seq', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/audit?actor=alice&action=cluster.create&limit=2', { status: 200, body: { items: [row(9), row(8)] } });
    api.on('GET /api/v1/audit?actor=alice&action=cluster.create&limit=2&before_seq=8', { status: 200, body: { items: [row(7)] } });
    const store = createAuditStore({ client: makeClient(api), pageSize: 2 });
    await store.getState().search({ actor: ' alice ', action: 'cluster.create' });
    expect(store.getState()).toMatchObject({ status: 'ready', hasMore: true });
    await store.getState().loadMore();
    expect(store.getState().items.map((r) => r.seq)).toEqual([9, 8, 7]);
    expect(store.getState().hasMore).toBe(false);
    await store.getState().loadMore();
    expect(api.calls).toHaveLength(2);
  });

  it('keeps the chain verdict, intact or broken', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/audit/verify', {
      status: 200,
      body: { ok: false, rows: 12, first_broken_seq: 7, reason: 'content does not match its hash' },
    });
    const store = createAuditStore({ client: makeClient(api) });
    await store.getState().verify();
    expect(store.getState().verdict).toEqual({ ok: false, rows: 12, first_broken_seq: 7, reason: 'content does not match its hash' });
  });
});

describe('users store', () => {
  it('lists and adds accounts; a refusal is kept', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/users', { status: 200, body: { items: [alice] } });
    api.on('POST /api/v1/users', { status: 201, body: { id: 'u-2', name: 'bob', role: 'viewer', created_at: '2026-01-01T00:00:00Z' } });
    const store = createUsersStore({ client: makeClient(api) });
    await store.getState().load();
    await store.getState().create({ name: 'bob', role: 'viewer', password: 'long-enough-pw' });
    expect(store.getState().items.map((u) => u.name)).toEqual(['alice', 'bob']);
    api.on('POST /api/v1/users', apiError(409, 'name_taken', 'taken', 'name'));
    expect(await store.getState().create({ name: 'bob', role: 'viewer', password: 'long-enough-pw' })).toBeNull();
    expect(store.getState().creation.error?.code).toBe('name_taken');
  });
});

describe('reports store', () => {
  it('says when the manager has no reports API', async () => {
    const api = new FakeApi();
    const store = createReportsStore({ client: makeClient(api), verify: () => ({ ok: true, payload: {} }) });
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'error', unavailable: true });
    await store.getState().runAcceptance('c-1');
    expect(store.getState().run.error?.status).toBe(404);
  });

  it('verifies the opened report against the opened key, offline, with the answer for what is shown only', async () => {
    const api = new FakeApi();
    api.on('GET /api/v1/keys/manager.pem', { status: 200, body: '-----BEGIN PUBLIC KEY-----\n' });
    const seen: string[] = [];
    const verify = (json: string, pem: string): ReportCheck => {
      seen.push(`${json}|${pem}`);
      return json === 'good'
        ? { ok: true, payload: { report_id: 'r1', verdict: 'PASS', lines: [] } }
        : { ok: false, code: 'signature_invalid', message: 'no' };
    };
    const store = createReportsStore({ client: makeClient(api), verify });
    store.getState().openReportFile({ name: 'r.json', text: 'good' });
    expect(await store.getState().verify()).toBeNull();
    expect(await store.getState().useManagerKey()).toBe(true);
    expect(await store.getState().verify()).toMatchObject({ ok: true });
    store.getState().openReportFile({ name: 'r.json', text: 'tampered' });
    expect(store.getState().check).toBeNull();
    expect(await store.getState().verify()).toMatchObject({ ok: false, code: 'signature_invalid' });
    expect(seen).toEqual(['good|-----BEGIN PUBLIC KEY-----\n', 'tampered|-----BEGIN PUBLIC KEY-----\n']);
  });

  it('reads a verified payload defensively, in the operator’s language', () => {
    const v = readVerifiedPayload({
      report_id: 'r1',
      verdict: 'BLOCKED',
      key_id: 'abcd',
      key_fingerprint: 'ab'.repeat(32),
      lines: [
        {
          id: 'l1',
          title: { en: 'Agent', fr: 'Agent du cluster' },
          status: 'BLOCKED',
          evidence: { reason: { en: 'no mirror', fr: 'pas de miroir' } },
        },
        'junk',
      ],
    });
    expect(v.keyFingerprint).toHaveLength(64);
    expect(pickText(v.lines[0]!.title, 'fr')).toBe('Agent du cluster');
    expect(pickText(v.lines[0]!.reason, 'en')).toBe('no mirror');
    expect(v.lines[1]).toMatchObject({ id: '2', title: '', status: '' });
    expect(pickText('plain', 'fr')).toBe('plain');
  });
});

describe('command palette', () => {
  const entries: PaletteEntry[] = [
    { id: 'screen:audit', group: 'screens', label: 'Audit', keywords: 'audit', target: { kind: 'screen', screen: 'audit' } },
    {
      id: 'action:verify',
      group: 'actions',
      label: 'Verify the audit chain',
      keywords: 'audit chain',
      target: { kind: 'action', action: 'verify-audit' },
    },
    ...Array.from({ length: 80 }, (_, i): PaletteEntry => ({
      id: `cluster:${i}`,
      group: 'clusters',
      label: `edge-${i}`,
      keywords: 'pending',
      target: { kind: 'cluster', clusterId: `c-${i}` },
    })),
  ];

  it('ranks a label’s start first, requires every term, caps the clusters', () => {
    expect(rankEntries(entries, 'audit')[0]?.id).toBe('screen:audit');
    expect(rankEntries(entries, 'audit chain').map((e) => e.id)).toEqual(['action:verify']);
    expect(rankEntries(entries, 'edge-7').map((e) => e.id)).toEqual([
      'cluster:7',
      'cluster:70',
      'cluster:71',
      'cluster:72',
      'cluster:73',
      'cluster:74',
      'cluster:75',
      'cluster:76',
      'cluster:77',
      'cluster:78',
      'cluster:79',
    ]);
    expect(rankEntries(entries, '').filter((e) => e.group === 'clusters')).toHaveLength(50);
    expect(rankEntries(entries, 'nothing-like-this')).toEqual([]);
  });

  it('moves the highlight around, wrapping', () => {
    const p = createPaletteStore();
    p.getState().show();
    p.getState().move(-1, 3);
    expect(p.getState().active).toBe(2);
    p.getState().move(1, 3);
    expect(p.getState().active).toBe(0);
    p.getState().setQuery('x');
    expect(p.getState()).toMatchObject({ active: 0, query: 'x', open: true });
    p.getState().hide();
    expect(p.getState().open).toBe(false);
  });
});
