// The Electron shell: one window, hardened, whose main process embeds the manager core. It only wires the
// window, IPC and the OS key store to the core; everything else lives in main/core and main/api.
import { app, BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openManager, type Manager } from './core/manager';
import { consoleApi } from './api/console-api';
import { mountIpc } from './ipc-transport';
import { safeStorageProtector } from './safe-storage-protector';
import { CONTENT_SECURITY_POLICY } from './headless/https-server';
import { startEmbeddedGateway } from './core/gateway/embedded-gateway';
import type { Gateway } from './core/gateway/gateway';

app.setName('navin-console');
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const dataDirArg = arg('data-dir');
// The agents connect out to this gateway; --gateway-port=off runs the console without one.
const gatewayHost = arg('gateway-host') ?? '127.0.0.1';
const gatewayPort = arg('gateway-port') ?? '8462';

const here = fileURLToPath(new URL('.', import.meta.url));
let manager: Manager | undefined;
let gateway: Gateway | undefined;

function createWindow(core: Manager): void {
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Navin Console',
    show: false,
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  const unmount = mountIpc(core, consoleApi(), window);
  window.on('closed', unmount);
  window.once('ready-to-show', () => window.show());
  // No navigation away from the console, no new windows; external links open in the system browser.
  window.webContents.on('will-navigate', (e) => e.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https:')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  if (process.env.ELECTRON_RENDERER_URL) void window.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void window.loadFile(join(here, '../renderer/index.html'));
}

app.whenReady().then(() => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  manager = openManager({ dataDir: dataDirArg ?? app.getPath('userData'), mode: 'desktop', protector: safeStorageProtector() });
  manager.syslog.start();
  manager.drift.startSchedule();
  manager.services.renewals.startSchedule();
  if (gatewayPort !== 'off') {
    startEmbeddedGateway(manager, {
      host: gatewayHost,
      port: Number(gatewayPort),
      serverName: arg('gateway-server-name') ?? gatewayHost,
    }).then(
      (g) => (gateway = g),
      (error: unknown) => console.error(JSON.stringify({ level: 'error', event: 'gateway.start_failed', error: String(error) })),
    );
  }
  createWindow(manager);
});

app.on('window-all-closed', () => app.quit());
app.on('will-quit', () => {
  void gateway?.close();
  void manager?.syslog.stop();
  manager?.close();
});
