// Entry of the renderer (Electron window or browser): preferences applied to <html>, session bootstrap from the
// launch link (#ticket= / #setup=) with the opening screen's chunk (and the clusters list's first page) fetched
// meanwhile, hash routing, then React.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { followSession } from './app/follow-session';
import { preloadScreen } from './app/Shell';
import { clustersStore, resetDataStores, routerStore, sessionStore, uiStore } from './app/stores';
import { parseLaunchHash } from './features/session/store';
import { resolveTheme } from './stores/ui';
import './styles/index.css';

const root = document.documentElement;
const darkQuery = window.matchMedia?.('(prefers-color-scheme: dark)');

function applyPreferences(): void {
  const { locale, theme } = uiStore.getState();
  const resolved = resolveTheme(theme, darkQuery?.matches ?? false);
  root.lang = locale;
  root.dataset.theme = resolved;
  root.dataset.themePreference = theme;
}

applyPreferences();
uiStore.subscribe(applyPreferences);
darkQuery?.addEventListener?.('change', applyPreferences);

// Hash routes, and launch links (#ticket= / #setup=) pasted into a console already open in this tab.
window.addEventListener('hashchange', () => {
  const hash = window.location.hash;
  void sessionStore
    .getState()
    .openLaunchLink(hash)
    .then((handled) => {
      if (!handled) routerStore.getState().syncFromHash(hash);
    });
});

followSession({ session: sessionStore, router: routerStore, clusters: clustersStore, resetData: resetDataStores });

// Opening on the clusters list without a launch link, its first page is asked for alongside the session check
// (quietly: a 401 there is the session check's to handle), and the signed-in console is drawn once with it, not
// once without and again with it; a page slower than OPENING_WAIT_MS is not waited for.
const OPENING_WAIT_MS = 1000;
const route = routerStore.getState();
const launch = parseLaunchHash(window.location.hash);
const firstPage = () =>
  Promise.race([clustersStore.getState().prefetchFirstPage(), new Promise((resolve) => setTimeout(resolve, OPENING_WAIT_MS))]);
void sessionStore
  .getState()
  .bootstrap(
    window.location.hash,
    route.screen === 'clusters' && route.clusterId === null && !launch.ticket && !launch.setup ? firstPage() : undefined,
  );
preloadScreen(route);

const container = document.getElementById('root');
if (!container) throw new Error('missing #root');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
