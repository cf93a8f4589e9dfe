// Shapes only the renderer uses (its own client's codes and states); the API types come from preload/api.ts.
export type { SetupStatus, TicketRequest } from '../../../preload/api';

/** Error codes produced by the client itself, never by the server. */
export type ClientErrorCode = 'network_error' | 'bad_response' | 'bridge_error';

/** Connection state of the event stream (SSE in a browser, IPC in the desktop app). */
export type LiveState = 'connecting' | 'open' | 'reconnecting' | 'closed';
