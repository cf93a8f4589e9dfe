// Events the core pushes to every console (IPC in the desktop app, Server-Sent Events in headless mode). Their
// names and data are the portable contract's event map: emitting an unknown event or a wrong payload does not
// compile, and a listener narrows `data` by comparing `type`, with no cast.
import { EventEmitter } from 'node:events';
import type { CoreEvent, EventMap, EventType } from '../contract/events';

export type { CoreEvent, EventMap, EventType } from '../contract/events';

export class CoreEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit<K extends EventType>(type: K, data: EventMap[K]): void {
    this.emitter.emit('event', { type, data });
  }

  subscribe(listener: (event: CoreEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
