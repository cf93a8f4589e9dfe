// Ctrl+K (⌘K): jump to a screen or a cluster, or run an action, from the keyboard. A modal dialog with a
// combobox: type to filter, ↑/↓ to move, Enter to go, Escape to close (the focus returns where it was).
import { useEffect, useMemo, useRef, type KeyboardEvent, type ReactElement } from 'react';
import type { ClusterState } from '../../../../preload/api';
import { auditStore, clustersStore, paletteStore, routerStore, uiStore, useClusters, usePalette, useSession, useT } from '../../app/stores';
import { rankEntries, type PaletteEntry } from './store';
import { SCREENS, type ScreenId } from '../../stores/router';
import { selectCanWrite } from '../session/store';
import { resolveTheme } from '../../stores/ui';
import { Icon, type IconName } from '../../components/Icon';
import { StateBadge } from '../../components/StateBadge';

const SCREEN_ICON: Record<ScreenId, IconName> = {
  clusters: 'clusters',
  components: 'components',
  commands: 'commands',
  mirror: 'upload',
  approvals: 'approvals',
  checks: 'checks',
  reports: 'reports',
  certificates: 'shield',
  audit: 'audit',
  settings: 'settings',
};

/** Installs the Ctrl+K / ⌘K shortcut (works from any field). */
export function usePaletteShortcut(): void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        const p = paletteStore.getState();
        if (p.open) p.hide();
        else p.show();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

type PaletteAction = Extract<PaletteEntry['target'], { kind: 'action' }>['action'];

/** The actions of the palette in their order; the words typed to find each, in English and French. */
const ACTIONS: readonly {
  action: PaletteAction;
  label: 'newCluster' | 'openReport' | 'verifyAudit' | 'toggleTheme' | 'toggleLanguage';
  keywords: string;
}[] = [
  { action: 'new-cluster', label: 'newCluster', keywords: 'new cluster create add nouveau créer' },
  { action: 'open-report', label: 'openReport', keywords: 'report verify open auditor rapport vérifier' },
  { action: 'verify-audit', label: 'verifyAudit', keywords: 'audit chain verify hash chaîne' },
  { action: 'toggle-theme', label: 'toggleTheme', keywords: 'theme dark light thème sombre clair' },
  { action: 'toggle-language', label: 'toggleLanguage', keywords: 'language langue english français' },
];

export function CommandPalette(): ReactElement | null {
  const open = usePalette((s) => s.open);
  return open ? <PaletteDialog /> : null;
}

function PaletteDialog(): ReactElement {
  const t = useT();
  const { query, active } = usePalette.fields('query', 'active');
  const clusters = useClusters((s) => s.items);
  const canWrite = useSession(selectCanWrite);
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const returnFocus = useRef<HTMLElement | null>(typeof document !== 'undefined' ? (document.activeElement as HTMLElement | null) : null);

  useEffect(() => {
    inputRef.current?.focus();
    if (clustersStore.getState().status === 'idle') void clustersStore.getState().load();
    const back = returnFocus.current;
    return () => {
      if (back && document.contains(back)) back.focus();
    };
  }, []);

  const entries = useMemo<PaletteEntry[]>(() => {
    const out: PaletteEntry[] = [];
    for (const a of ACTIONS)
      if (canWrite || a.action !== 'new-cluster')
        out.push({
          id: `action:${a.action}`,
          group: 'actions',
          label: t(`palette.action.${a.label}`),
          keywords: a.keywords,
          target: { kind: 'action', action: a.action },
        });
    for (const s of SCREENS)
      out.push({
        id: `screen:${s}`,
        group: 'screens',
        label: t(`nav.${s}`),
        keywords: `${s} ${t('palette.goTo')}`,
        target: { kind: 'screen', screen: s },
      });
    if (isAdmin)
      out.push({
        id: 'settings:users',
        group: 'screens',
        label: t('settings.section.users'),
        keywords: 'users accounts utilisateurs comptes',
        target: { kind: 'settings', section: 'users' },
      });
    for (const c of clusters)
      out.push({
        id: `cluster:${c.id}`,
        group: 'clusters',
        label: c.name,
        keywords: `${c.state} ${c.tenant} ${c.description}`,
        hint: c.state,
        target: { kind: 'cluster', clusterId: c.id },
      });
    return out;
  }, [t, clusters, canWrite, isAdmin]);

  const ranked = useMemo(() => rankEntries(entries, query), [entries, query]);
  const current = Math.min(active, Math.max(0, ranked.length - 1));
  const activeEntry = ranked[current];

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const run = (entry: PaletteEntry): void => {
    returnFocus.current = null; // the destination takes the focus
    paletteStore.getState().hide();
    const target = entry.target;
    const router = routerStore.getState();
    switch (target.kind) {
      case 'screen':
        router.navigate(target.screen);
        break;
      case 'settings':
        router.openSettings(target.section);
        break;
      case 'cluster':
        router.openCluster(target.clusterId, target.tab);
        break;
      case 'action':
        if (target.action === 'new-cluster') {
          router.navigate('clusters');
          clustersStore.getState().setCreateFormOpen(true);
        } else if (target.action === 'open-report') {
          router.navigate('reports');
        } else if (target.action === 'verify-audit') {
          router.navigate('audit');
          void auditStore.getState().verify();
        } else if (target.action === 'toggle-theme') {
          const ui = uiStore.getState();
          const dark = resolveTheme(ui.theme, window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false) === 'dark';
          ui.setTheme(dark ? 'light' : 'dark');
        } else if (target.action === 'toggle-language') {
          const ui = uiStore.getState();
          ui.setLocale(ui.locale === 'en' ? 'fr' : 'en');
        }
        break;
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const p = paletteStore.getState();
    if (e.key === 'Escape') {
      e.preventDefault();
      p.hide();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      p.move(1, ranked.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      p.move(-1, ranked.length);
    } else if (e.key === 'Home' && e.ctrlKey) {
      e.preventDefault();
      p.setActive(0);
    } else if (e.key === 'End' && e.ctrlKey) {
      e.preventDefault();
      p.setActive(Math.max(0, ranked.length - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (activeEntry) run(activeEntry);
    } else if (e.key === 'Tab') {
      // The dialog holds the focus: the input is its only stop.
      e.preventDefault();
    }
  };

  let lastGroup: PaletteEntry['group'] | null = null;
  return (
    <div className="palette-backdrop" onMouseDown={() => paletteStore.getState().hide()} data-testid="palette-backdrop">
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label={t('palette.label')}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={onKeyDown}
        data-testid="palette"
      >
        <div className="palette-input">
          <Icon name="search" className="search-icon" />
          <input
            ref={inputRef}
            role="combobox"
            aria-expanded="true"
            aria-controls="palette-list"
            aria-activedescendant={activeEntry ? `palette-${current}` : undefined}
            aria-autocomplete="list"
            aria-label={t('palette.inputLabel')}
            placeholder={t('palette.placeholder')}
            value={query}
            onChange={(e) => paletteStore.getState().setQuery(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            data-testid="palette-input"
          />
          <kbd className="kbd">Esc</kbd>
        </div>
        <ul id="palette-list" role="listbox" className="palette-list" ref={listRef} aria-label={t('palette.results')}>
          {ranked.length === 0 ? (
            <li className="palette-empty" role="option" aria-selected="false" aria-disabled="true">
              {t('palette.noMatch', { query })}
            </li>
          ) : (
            ranked.map((entry, i) => {
              const header = entry.group !== lastGroup ? entry.group : null;
              lastGroup = entry.group;
              return (
                <li
                  key={entry.id}
                  id={`palette-${i}`}
                  role="option"
                  aria-selected={i === current}
                  data-index={i}
                  data-testid="palette-option"
                  data-entry={entry.id}
                  className={i === current ? 'palette-option is-active' : 'palette-option'}
                  onMouseMove={() => i !== current && paletteStore.getState().setActive(i)}
                  onClick={() => run(entry)}
                >
                  {header ? <span className="palette-group">{t(`palette.group.${header}`)}</span> : null}
                  <span className="palette-row">
                    <Icon
                      name={
                        entry.target.kind === 'screen'
                          ? SCREEN_ICON[entry.target.screen]
                          : entry.group === 'clusters'
                            ? 'clusters'
                            : entry.target.kind === 'settings'
                              ? 'user'
                              : 'commands'
                      }
                    />
                    <span className={entry.group === 'clusters' ? 'palette-label mono' : 'palette-label'}>{entry.label}</span>
                    {entry.group === 'clusters' && entry.target.kind === 'cluster' ? (
                      <StateBadge state={(entry.hint ?? 'pending') as ClusterState} />
                    ) : null}
                  </span>
                </li>
              );
            })
          )}
        </ul>
        <p className="palette-help">{t('palette.help')}</p>
      </div>
    </div>
  );
}
