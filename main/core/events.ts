// Events the core pushes to every console (IPC in the desktop app, Server-Sent Events in headless mode).
import { EventEmitter } from 'node:events';

export interface CoreEvent {
  type: string;
  data: unknown;
}

export class CoreEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(type: string, data: unknown): void {
    this.emitter.emit('event', { type, data } satisfies CoreEvent);
  }

  subscribe(listener: (event: CoreEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
