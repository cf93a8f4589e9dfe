// The signed-in frame: top bar (product, mode, live state, user, role, sign-out), left navigation, main area.
import {
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ElementType,
  type ReactElement,
  type RefObject,
} from 'react';
import { Brand } from '../components/Brand';
import { Icon, type IconName } from '../components/Icon';
import { CommandPalette, usePaletteShortcut } from '../features/palette/CommandPalette';
import { CertificatesAlert, useCertificatesWatch } from '../features/certificates/CertificatesAlert';
import { Loading } from '../components/Loading';
import { PlaceholderScreen, type PlaceholderId } from './PlaceholderScreen';
import { hashOf, type ScreenId } from '../stores/router';
import { paletteStore, sessionStore, startLiveStores, systemStore, useRouter, useSession, useSystem, useT } from './stores';

/** The navigation's sections, their links in order. */
const SECTIONS: ReadonlyArray<{ label: 'nav.section.operate' | 'nav.section.assurance'; items: readonly ScreenId[] }> = [
  { label: 'nav.section.operate', items: ['clusters', 'components', 'commands', 'mirror'] },
  { label: 'nav.section.assurance', items: ['approvals', 'checks', 'reports', 'certificates', 'audit'] },
];

/** A screen's link shows the screen's icon; the mirror's, an upload; the certificates', a shield. */
const navIcon = (id: ScreenId): IconName => (id === 'mirror' ? 'upload' : id === 'certificates' ? 'shield' : id);

/** A screen in its own chunk, fetched the first time it is shown (the bundle stays small at start) or ahead of it. */
interface ScreenChunk<P extends object> {
  (props: P): ReactElement;
  /** Fetches the chunk now, once. */
  preload(): Promise<unknown>;
}

function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): ScreenChunk<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const fetchChunk = (): Promise<ComponentType<P>> =>
    (pending ??= load().then(
      (c) => (loaded = c),
      (e: unknown) => {
        pending = null; // the next attempt fetches it again
        throw e;
      },
    ));
  const Lazy = lazy(async () => ({ default: await fetchChunk() }));
  // A chunk already in renders without suspending: React holds back what replaces a Suspense fallback for up to
  // 300 ms, which would hold back the first screen. The choice is made once per mount, never swapped under it.
  function Screen(props: P): ReactElement {
    const [Shown] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return <Shown {...props} />;
  }
  return Object.assign(Screen, { preload: fetchChunk });
}

const ApprovalsScreen = lazyScreen(async () => (await import('../features/approvals/ApprovalsScreen')).ApprovalsScreen);
const AuditScreen = lazyScreen(async () => (await import('../features/audit/AuditScreen')).AuditScreen);
const ChecksScreen = lazyScreen(async () => (await import('../features/checks/ChecksScreen')).ChecksScreen);
const ClusterPage = lazyScreen(async () => (await import('../features/cluster/ClusterPage')).ClusterPage);
const ClustersScreen = lazyScreen(async () => (await import('../features/clusters/ClustersScreen')).ClustersScreen);
const CommandsScreen = lazyScreen(async () => (await import('../features/commands/CommandsScreen')).CommandsScreen);
const CertificatesScreen = lazyScreen(async () => (await import('../features/certificates/CertificatesScreen')).CertificatesScreen);
const ReportsScreen = lazyScreen(async () => (await import('../features/reports/ReportsScreen')).ReportsScreen);
const MirrorScreen = lazyScreen(async () => (await import('../features/mirror/MirrorScreen')).MirrorScreen);
const SettingsScreen = lazyScreen(async () => (await import('../features/settings/SettingsScreen')).SettingsScreen);

/** The screens built so far besides clusters and settings; the others are placeholders. */
const SCREENS: Partial<Record<PlaceholderId, ElementType & ScreenChunk<Record<string, never>>>> = {
  commands: CommandsScreen,
  approvals: ApprovalsScreen,
  checks: ChecksScreen,
  audit: AuditScreen,
  reports: ReportsScreen,
  certificates: CertificatesScreen,
  mirror: MirrorScreen,
};

/** The chunk of a route's screen, if it has one. */
function chunkOf(id: ScreenId, clusterId: string | null): ScreenChunk<never> | undefined {
  if (id === 'clusters') return (clusterId ? ClusterPage : ClustersScreen) as ScreenChunk<never>;
  if (id === 'settings') return SettingsScreen as ScreenChunk<never>;
  return SCREENS[id] as ScreenChunk<never> | undefined;
}

/** Fetches the chunk of the screen the console opens on while the session is checked, so both arrive together. */
export function preloadScreen(route: { screen: ScreenId; clusterId: string | null }): void {
  void chunkOf(route.screen, route.clusterId)
    ?.preload()
    .catch(() => undefined); // shown later, the screen fetches it again and its boundary reports the failure
}

function Screen({ id, clusterId }: { id: ScreenId; clusterId: string | null }): ReactElement {
  if (id === 'clusters') return clusterId ? <ClusterPage clusterId={clusterId} /> : <ClustersScreen />;
  if (id === 'settings') return <SettingsScreen />;
  const Shown = SCREENS[id];
  return Shown ? <Shown /> : <PlaceholderScreen id={id} />;
}

function NavLink({ id, current }: { id: ScreenId; current: boolean }): ReactElement {
  const t = useT();
  return (
    <li>
      <a
        href={hashOf(id)}
        className={current ? 'nav-link is-current' : 'nav-link'}
        aria-current={current ? 'page' : undefined}
        data-testid={`nav-${id}`}
      >
        <Icon name={navIcon(id)} className="nav-icon" />
        <span>{t(`nav.${id}`)}</span>
      </a>
    </li>
  );
}

function LiveIndicator(): ReactElement {
  const t = useT();
  const live = useSystem((s) => s.live);
  return (
    <span className={`live live-${live}`} title={t('app.live.label')} data-testid="live-state" data-live={live}>
      <span className="live-dot" aria-hidden="true" />
      <span className="visually-hidden">{t('app.live.label')} : </span>
      {t(`app.live.${live}`)}
    </span>
  );
}

/**
 * Moving to another screen puts the focus on its heading (not on first display). It sits inside the Suspense
 * boundary next to the screen, so its effect runs once the screen's chunk has loaded and its heading is there.
 */
function FocusOnScreenChange({
  main,
  screen,
  clusterId,
}: {
  main: RefObject<HTMLElement | null>;
  screen: ScreenId;
  clusterId: string | null;
}): null {
  const firstScreen = useRef(true);
  useEffect(() => {
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    // A screen that put the focus somewhere itself (a form opened from the palette) keeps it.
    const active = document.activeElement;
    if (active && active !== document.body && main.current?.contains(active)) return;
    const heading = main.current?.querySelector<HTMLElement>('h1');
    (heading ?? main.current)?.focus();
  }, [main, screen, clusterId]);
  return null;
}

export function Shell(): ReactElement {
  const t = useT();
  const screen = useRouter((s) => s.screen);
  const clusterId = useRouter((s) => (s.screen === 'clusters' ? s.clusterId : null));
  const user = useSession((s) => s.user);
  const version = useSystem((s) => s.version);
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    void systemStore.getState().loadVersion();
    return startLiveStores();
  }, []);

  usePaletteShortcut();
  useCertificatesWatch();

  useEffect(() => {
    if (!clusterId) document.title = `${t(`nav.${screen}`)} · ${t('app.name')}`;
  }, [screen, clusterId, t]);

  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        <Brand />
        {version ? (
          <span className="badge badge-mode" data-testid="mode">
            {t(version.mode === 'desktop' ? 'app.mode.desktop' : 'app.mode.headless')}
          </span>
        ) : null}
        <span className="topbar-spacer" />
        <button
          type="button"
          className="btn btn-ghost btn-sm palette-open"
          onClick={() => paletteStore.getState().show()}
          aria-keyshortcuts="Control+K"
          data-testid="open-palette"
        >
          <Icon name="search" />
          <span>{t('palette.open')}</span>
          <kbd className="kbd">Ctrl K</kbd>
        </button>
        <LiveIndicator />
        {user ? (
          <span className="topbar-user" data-testid="current-user">
            <Icon name="user" />
            <span className="visually-hidden">{t('topbar.signedInAs', { name: user.name })}</span>
            <span className="user-name" aria-hidden="true">
              {user.name}
            </span>
            <span className="badge badge-role" data-testid="current-role" data-role={user.role}>
              <span className="visually-hidden">{t('topbar.role')} : </span>
              {t(`role.${user.role}`)}
            </span>
          </span>
        ) : null}
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void sessionStore.getState().logout()} data-testid="logout">
          <Icon name="logout" />
          {t('topbar.logout')}
        </button>
      </header>
      <div className="shell-body">
        <nav className="sidebar" aria-label={t('nav.label')}>
          {SECTIONS.map((section) => (
            <div className="nav-section" key={section.label}>
              <h2 className="nav-section-title">{t(section.label)}</h2>
              <ul className="nav-list">
                {section.items.map((item) => (
                  <NavLink key={item} id={item} current={screen === item} />
                ))}
              </ul>
            </div>
          ))}
          <div className="nav-section nav-bottom">
            <ul className="nav-list">
              <NavLink id="settings" current={screen === 'settings'} />
            </ul>
          </div>
        </nav>
        <main id="main" ref={mainRef} tabIndex={-1} className="main">
          <CertificatesAlert />
          <Suspense fallback={<Loading testId="screen-loading" />}>
            <Screen id={screen} clusterId={clusterId} />
            <FocusOnScreenChange main={mainRef} screen={screen} clusterId={clusterId} />
          </Suspense>
        </main>
      </div>
      <CommandPalette />
    </div>
  );
}
