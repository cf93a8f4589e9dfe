// The IPC transport of the desktop app: the renderer's API calls arrive over one channel and go through the
// same router as HTTPS. The session token stays in the main process, held per window, never in the renderer.
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { Manager } from './core/manager';
import type { Method, Router } from './core/http/router';
import { API_CHANNEL, EVENT_CHANNEL } from '../preload/channels';
import { checkJsonValue, InvalidJsonError } from './core/http/json-body';
import { credentialRoute, nameHintOf } from './core/accounts/credential-routes';

interface IpcRequest {
  method: Method;
  path: string;
  body?: unknown;
}

export function mountIpc(manager: Manager, router: Router, window: BrowserWindow): () => void {
  const sessions = new Map<number, string>();
  const handler = async (event: IpcMainInvokeEvent, req: IpcRequest): Promise<{ status: number; body: unknown }> => {
    if (event.sender.id !== window.webContents.id)
      return { status: 403, body: { error: { code: 'forbidden', message: 'unknown sender' } } };
    const url = new URL(req.path, 'app://navin');
    // Structured clone carries more than JSON (lone surrogates, Dates, depth): the same refusal as over HTTPS.
    try {
      checkJsonValue(req.body);
    } catch (error) {
      if (!(error instanceof InvalidJsonError)) throw error;
      const credential = credentialRoute(req.method, url.pathname);
      if (credential) manager.accounts.refusedCredential(credential, nameHintOf(req.body), 'invalid_json');
      return { status: 400, body: { error: { code: error.code, message: error.message, details: error.details } } };
    }
    const result = await router.handle(manager, {
      method: req.method,
      path: url.pathname,
      query: url.searchParams,
      body: req.body,
      credentials: { session: sessions.get(event.sender.id), trustedChannel: true },
    });
    if (result.session) sessions.set(event.sender.id, result.session.token);
    if (result.session === null) sessions.delete(event.sender.id);
    return { status: result.status, body: result.body };
  };
  ipcMain.handle(API_CHANNEL, handler);
  const unsubscribe = manager.events.subscribe((e) => {
    if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, e);
  });
  return () => {
    ipcMain.removeHandler(API_CHANNEL);
    unsubscribe();
  };
}
