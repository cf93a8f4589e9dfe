// Tabs as links (each tab has its own address): one tab stop, arrow keys / Home / End move between tabs and
// open them, as the WAI-ARIA tabs pattern with automatic activation.
import { useRef, type KeyboardEvent, type ReactElement, type ReactNode } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
  href: string;
  badge?: ReactNode;
}

export function Tabs<T extends string>({
  tabs,
  current,
  label,
  idPrefix,
  onSelect,
}: {
  tabs: readonly TabItem<T>[];
  current: T;
  label: string;
  idPrefix: string;
  onSelect: (id: T) => void;
}): ReactElement {
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const i = tabs.findIndex((tab) => tab.id === current);
    const moves: Record<string, number> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.id);
    requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>(`#${idPrefix}-tab-${next.id}`)?.focus());
  };
  return (
    <div className="tabs" role="tablist" aria-label={label} ref={listRef} onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const selected = tab.id === current;
        return (
          <a
            key={tab.id}
            id={`${idPrefix}-tab-${tab.id}`}
            role="tab"
            href={tab.href}
            className={selected ? 'tab is-current' : 'tab'}
            aria-selected={selected}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={selected ? 0 : -1}
            data-testid={`tab-${tab.id}`}
            onClick={(e) => {
              e.preventDefault();
              onSelect(tab.id);
            }}
          >
            {tab.label}
            {tab.badge !== undefined && tab.badge !== null ? <span className="tab-badge">{tab.badge}</span> : null}
          </a>
        );
      })}
    </div>
  );
}

export function TabPanel({ idPrefix, current, children }: { idPrefix: string; current: string; children: ReactNode }): ReactElement {
  return (
    <div
      id={`${idPrefix}-panel`}
      role="tabpanel"
      aria-labelledby={`${idPrefix}-tab-${current}`}
      className="tab-panel"
      data-testid={`panel-${current}`}
    >
      {children}
    </div>
  );
}
