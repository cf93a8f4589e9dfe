// The only bridge between the sandboxed renderer and the main process: the typed console API, nothing else.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { API_CHANNEL, EVENT_CHANNEL } from './channels';
import type { ApiEvent, ApiRequest, ApiResponse, NavinBridge } from './api';

const bridge: NavinBridge = {
  request: <T>(req: ApiRequest) =>
    ipcRenderer.invoke(API_CHANNEL, { method: req.method, path: req.path, body: req.body }) as Promise<ApiResponse<T>>,
  onEvent(listener) {
    const wrapped = (_e: IpcRendererEvent, event: ApiEvent): void => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
  },
};

contextBridge.exposeInMainWorld('navin', bridge);
