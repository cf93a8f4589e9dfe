// What the data stores do when the session changes: forget an operator's data when they leave, load the list
// the console opens on once signed in, and use a first page asked for during start-up then or never.
import type { ClustersStore } from '../features/clusters/store';
import type { RouterStore } from '../stores/router';
import type { SessionStore } from '../features/session/store';

export interface FollowSessionDeps {
  session: SessionStore;
  router: RouterStore;
  clusters: ClustersStore;
  resetData: () => void;
}

/** Subscribes to the session store; returns the unsubscribe function. */
export function followSession({ session, router, clusters, resetData }: FollowSessionDeps): () => void {
  const listOpen = (): boolean => {
    const { screen, clusterId } = router.getState();
    return screen === 'clusters' && clusterId === null;
  };
  return session.subscribe((s, prev) => {
    // A signed-out console keeps nothing of the previous operator's data; another operator starts afresh.
    if (prev.status === 'authenticated' && s.status !== 'authenticated') resetData();
    else if (prev.status === 'authenticated' && s.user && prev.user && s.user.id !== prev.user.id) {
      resetData();
      void clusters.getState().load();
    }
    // A first page asked for during the session check serves the list opened at the end of start-up, or nobody:
    // kept for later (an operator signing in, a list opened an hour on), it would be shown as the list of now.
    if (prev.status === 'booting' && s.status !== 'booting' && !(s.status === 'authenticated' && listOpen())) clusters.getState().reset();
    // The list the console opens on is asked for as soon as the session is confirmed, while React draws the shell.
    if (prev.status !== 'authenticated' && s.status === 'authenticated' && listOpen()) void clusters.getState().ensureLoad();
  });
}
