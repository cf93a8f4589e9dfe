// The request form keeps the exact change an approval is bound to: prefilled as JSON from the refused operation,
// sent back as the same value; the row shows the digest in a form a person compares at a glance.
import { describe, expect, it } from 'vitest';
import { changeText, needsCluster, parseChangeText, shortDigest } from '../../renderer/src/features/approvals/approval-change';
import { SYSTEM_ACTS } from '../../main/core/approvals/approval-acts';

describe('the exact change of an approval request', () => {
  it('round-trips the change of a refused operation through the form’s text unchanged', () => {
    const change = { settings: { jetstream_max_memory: '512MB', 'a\u2028b': [1, 2] } };
    const back = parseChangeText(changeText(change));
    expect(back).toEqual({ ok: true, change });
  });

  it('sends no change (null) for an empty text, and refuses text that is not JSON', () => {
    expect(changeText(null)).toBe('');
    expect(parseChangeText('  ')).toEqual({ ok: true, change: null });
    expect(parseChangeText('{settings: 1}')).toEqual({ ok: false });
  });

  it('asks for no cluster for exactly the acts the manager judges across every cluster', () => {
    for (const act of SYSTEM_ACTS) expect(needsCluster(act)).toBe(false);
    for (const act of ['configuration', 'delete_cluster', 'backup']) expect(needsCluster(act)).toBe(true);
  });

  it('shows a digest’s first 16 hex characters grouped by four', () => {
    expect(shortDigest('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef')).toBe('0123 4567 89ab cdef');
  });
});
