// The IPC channel names shared by the preload bridge and the main process's IPC transport.
export const API_CHANNEL = 'navin:api';
export const EVENT_CHANNEL = 'navin:event';
