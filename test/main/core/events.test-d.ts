// Type test (checked by `npm run typecheck`): the core emits only the events of the contract's map, each with
// its own data, and a listener narrows `data` by `type` alone. Every expected-error directive below fails the
// typecheck if its line compiles, i.e. if the map stopped biting.
import { CoreEvents } from '../../../main/core/events';

const events = new CoreEvents();

// The events of the map, with their data, compile.
events.emit('cluster.changed', { id: 'c1' });
events.emit('command.changed', { cluster_id: 'c1' });
events.emit('approval.changed', { id: 'a1', cluster_id: null });

// @ts-expect-error an event the map does not name (the console once listened for it)
events.emit('clusters.changed', { id: 'c1' });

// @ts-expect-error a field missing from the data
events.emit('host.changed', { id: 'h1' });

// @ts-expect-error a field of the wrong type
events.emit('preflight.completed', { id: 'p1', cluster_id: 'c1', outcome: 'maybe' });

// @ts-expect-error no data at all
events.emit('drift.changed');

// @ts-expect-error another event's data
events.emit('report.created', { cluster_id: 'c1' });

events.subscribe((e) => {
  // Narrowed by the type: no cast.
  if (e.type === 'service.changed') {
    const service: string = e.data.service;
    void service;
    // @ts-expect-error service.changed has no `verdict`
    void e.data.verdict;
  }
  // @ts-expect-error a type no event has (the comparison cannot be true)
  if (e.type === 'clusters.changed') return;
});
