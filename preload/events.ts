// The event map's parser (the portable contract's, pure zod) re-exported for the renderer, which may import
// nothing from main/ itself: what arrives over the network is read through it, never trusted as typed.
export { parseCoreEvent } from '../main/contract/events';
