import { describe, expect, it } from 'vitest';
import { escapeParamValue, formatAuditRow, headerField } from '../../../../main/core/audit/syslog-message';
import { octetFrame } from '../../../../main/core/audit/syslog-sender';
import type { AuditRow } from '../../../../main/core/store/audit-log';

const row = (over: Partial<AuditRow> = {}): AuditRow => ({
  seq: 42,
  at: '2026-12-02T10:00:00.123Z',
  actor: 'alice',
  action: 'cluster.create',
  cluster_id: 'c-1',
  target: 'edge-paris-1',
  details: { name: 'edge-paris-1' },
  prev_hash: '0'.repeat(64),
  hash: 'ab'.repeat(32),
  ...over,
});

describe('RFC 5424 audit messages', () => {
  it('formats PRI (authpriv.notice), version, timestamp, host, app, procid, msgid, SD and a BOM-prefixed JSON MSG', () => {
    const msg = formatAuditRow(row(), { hostname: 'mgr-1' });
    expect(msg).toBe(
      `<85>1 2026-12-02T10:00:00.123Z mgr-1 navin-manager ${process.pid} cluster.create [navin@32473 seq="42" actor="alice" cluster="c-1" target="edge-paris-1" hash="${'ab'.repeat(32)}"] \uFEFF{"name":"edge-paris-1"}`,
    );
  });

  it('raises failed logins and refusals to warning (PRI 84) and leaves out null fields', () => {
    const msg = formatAuditRow(row({ action: 'session.login_failed', cluster_id: null, target: null, details: {} }), { hostname: 'mgr-1' });
    expect(msg.startsWith('<84>1 ')).toBe(true);
    expect(msg).toContain(`[navin@32473 seq="42" actor="alice" hash="${'ab'.repeat(32)}"] \uFEFF{}`);
    expect(formatAuditRow(row({ action: 'gateway.receipt_refused' })).startsWith('<84>1 ')).toBe(true);
  });

  it('escapes ", \\ and ] in parameter values as the RFC says', () => {
    expect(escapeParamValue('a"b\\c]d[e')).toBe('a\\"b\\\\c\\]d[e');
    const msg = formatAuditRow(row({ actor: 'x"] evil="1', target: 'C:\\dir' }), { hostname: 'h' });
    expect(msg).toContain('actor="x\\"\\] evil=\\"1" cluster="c-1" target="C:\\\\dir"');
  });

  it('keeps header fields to PRINTUSASCII within their lengths', () => {
    expect(headerField('cluster.créé avec espace', 32)).toBe('cluster.cr___avec_espace');
    expect(headerField('x'.repeat(40), 32)).toHaveLength(32);
    expect(headerField('', 32)).toBe('-');
    const msg = formatAuditRow(row({ action: 'a very long action name with spaces.and.more' }), { hostname: 'host name' });
    const [, , host, , , msgid] = msg.split(' ');
    expect(host).toBe('host_name');
    expect(msgid).toBe('a_very_long_action_name_with_spa');
  });

  it('replaces details too large for a receiver by their size, keeping seq and hash', () => {
    const msg = formatAuditRow(row({ details: { blob: 'x'.repeat(10_000) } }), { hostname: 'h' });
    expect(Buffer.byteLength(msg)).toBeLessThan(8192);
    expect(msg).toContain('seq="42"');
    expect(msg).toMatch(/\{"truncated":true,"details_bytes":10011\}$/);
  });

  it('frames for TCP with the length in octets, not characters (RFC 6587)', () => {
    const m = formatAuditRow(row({ actor: 'éloïse' }), { hostname: 'h' });
    const frame = octetFrame(m);
    const len = Buffer.byteLength(m, 'utf8');
    expect(len).toBeGreaterThan(m.length);
    expect(frame.subarray(0, String(len).length + 1).toString()).toBe(`${len} `);
    expect(frame.length).toBe(String(len).length + 1 + len);
  });
});
