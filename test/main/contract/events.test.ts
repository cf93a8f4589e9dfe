import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, parseCoreEvent } from '../../../main/contract/events';

describe('the event map', () => {
  it('parses an event of the map and drops fields its schema does not name', () => {
    expect(parseCoreEvent({ type: 'cluster.changed', data: { id: 'c1', extra: 1 } })).toEqual({
      type: 'cluster.changed',
      data: { id: 'c1' },
    });
    expect(parseCoreEvent({ type: 'command.changed', data: { cluster_id: 'c1' } })).toEqual({
      type: 'command.changed',
      data: { cluster_id: 'c1' },
    });
  });

  it('refuses an unknown event, data of the wrong shape and what is no event', () => {
    expect(parseCoreEvent({ type: 'clusters.changed', data: { id: 'c1' } })).toBeNull();
    expect(parseCoreEvent({ type: 'cluster.changed', data: null })).toBeNull();
    expect(parseCoreEvent({ type: 'cluster.changed', data: { id: '' } })).toBeNull();
    expect(parseCoreEvent({ type: 'preflight.completed', data: { id: 'p', cluster_id: 'c', outcome: 'maybe' } })).toBeNull();
    expect(parseCoreEvent({ type: 'toString', data: {} })).toBeNull();
    expect(parseCoreEvent('cluster.changed')).toBeNull();
    expect(parseCoreEvent(null)).toBeNull();
  });

  it('lists every event type once', () => {
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    expect(EVENT_TYPES).toContain('command.changed');
    expect(EVENT_TYPES).not.toContain('clusters.changed');
  });
});
