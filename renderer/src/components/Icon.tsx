// Inline SVG icons (no icon font, no network). Decorative by default: aria-hidden.
import type { ReactElement } from 'react';

export type IconName =
  | 'clusters'
  | 'components'
  | 'commands'
  | 'approvals'
  | 'checks'
  | 'reports'
  | 'audit'
  | 'settings'
  | 'logout'
  | 'plus'
  | 'search'
  | 'close'
  | 'sort'
  | 'sortAsc'
  | 'sortDesc'
  | 'refresh'
  | 'alert'
  | 'info'
  | 'user'
  | 'trash'
  | 'edit'
  | 'check'
  | 'copy'
  | 'download'
  | 'upload'
  | 'external'
  | 'back'
  | 'key'
  | 'shield'
  | 'node'
  | 'agent'
  | 'warning'
  | 'logo';

const PATHS: Record<IconName, ReactElement> = {
  clusters: (
    <>
      <path d="M12 2.5 20 7v10l-8 4.5L4 17V7z" />
      <path d="M12 12 20 7M12 12 4 7M12 12v9.5" />
    </>
  ),
  components: (
    <>
      <rect x="3.5" y="3.5" width="7" height="7" rx="1.5" />
      <rect x="13.5" y="3.5" width="7" height="7" rx="1.5" />
      <rect x="3.5" y="13.5" width="7" height="7" rx="1.5" />
      <rect x="13.5" y="13.5" width="7" height="7" rx="1.5" />
    </>
  ),
  commands: (
    <>
      <rect x="2.5" y="4" width="19" height="16" rx="2" />
      <path d="m6.5 9 3 3-3 3M12 15h5" />
    </>
  ),
  approvals: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20c.8-3.6 3.4-5.5 6.5-5.5 1.6 0 3 .5 4.1 1.4M15 18l2 2 4.5-4.5" />
    </>
  ),
  checks: <path d="M3 12h4l2.5-6 5 12 2.5-6h4" />,
  reports: (
    <>
      <path d="M6 2.5h8l4.5 4.5v14.5H6z" />
      <path d="M14 2.5V7h4.5M9 12h6.5M9 15.5h6.5M9 8.5h2.5" />
    </>
  ),
  audit: (
    <>
      <path d="M8 5.5h12M8 12h12M8 18.5h12" />
      <circle cx="4" cy="5.5" r="1" />
      <circle cx="4" cy="12" r="1" />
      <circle cx="4" cy="18.5" r="1" />
    </>
  ),
  settings: (
    <>
      <circle cx="12" cy="12" r="3" />
      <path d="M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1" />
    </>
  ),
  logout: (
    <>
      <path d="M14 4.5H19.5v15H14" />
      <path d="M10 8l-4 4 4 4M6 12h10" />
    </>
  ),
  plus: <path d="M12 5v14M5 12h14" />,
  search: (
    <>
      <circle cx="11" cy="11" r="6" />
      <path d="m15.5 15.5 4.5 4.5" />
    </>
  ),
  close: <path d="M6 6l12 12M18 6 6 18" />,
  sort: <path d="m8 9 4-4 4 4M8 15l4 4 4-4" />,
  sortAsc: <path d="m7 14 5-5 5 5" />,
  sortDesc: <path d="m7 10 5 5 5-5" />,
  refresh: (
    <>
      <path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3" />
      <path d="M19.5 4v4h-4" />
    </>
  ),
  alert: (
    <>
      <path d="M12 3 2.5 20h19z" />
      <path d="M12 10v4.5M12 17.2v.1" />
    </>
  ),
  info: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5.5M12 7.8v.1" />
    </>
  ),
  user: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c.9-4 4-6.5 8-6.5s7.1 2.5 8 6.5" />
    </>
  ),
  trash: (
    <>
      <path d="M4 7h16M9.5 7V4.5h5V7M6.5 7l1 13h9l1-13" />
    </>
  ),
  edit: <path d="M4 20h4L19.5 8.5l-4-4L4 16zM13.5 6.5l4 4" />,
  check: <path d="m5 12.5 4.5 4.5L19 7.5" />,
  copy: (
    <>
      <rect x="8.5" y="8.5" width="11" height="11" rx="1.5" />
      <path d="M15.5 8.5V5.5a1 1 0 0 0-1-1h-9a1 1 0 0 0-1 1v9a1 1 0 0 0 1 1h3" />
    </>
  ),
  download: <path d="M12 4v11M7 10.5l5 5 5-5M5 19.5h14" />,
  upload: <path d="M12 15.5v-11M7 9l5-5 5 5M5 19.5h14" />,
  external: <path d="M13.5 4.5h6v6M19.5 4.5 11 13M17 14v5.5H4.5V7H10" />,
  back: <path d="M19 12H5M11 6l-6 6 6 6" />,
  key: (
    <>
      <circle cx="8" cy="15" r="4" />
      <path d="m11 12 8.5-8.5M16.5 6.5l2.5 2.5M14 9l2 2" />
    </>
  ),
  shield: (
    <>
      <path d="M12 3 4.5 6v5.5c0 4.6 3.1 8.1 7.5 9.5 4.4-1.4 7.5-4.9 7.5-9.5V6z" />
      <path d="m8.8 12 2.3 2.3 4.3-4.5" />
    </>
  ),
  node: (
    <>
      <rect x="3.5" y="4" width="17" height="6.5" rx="1.5" />
      <rect x="3.5" y="13.5" width="17" height="6.5" rx="1.5" />
      <path d="M7 7.25h.01M7 16.75h.01" />
    </>
  ),
  agent: (
    <>
      <rect x="5" y="7.5" width="14" height="11" rx="2.5" />
      <path d="M12 3.5v4M9 12.5v1.5M15 12.5v1.5M2.5 12v3M21.5 12v3" />
    </>
  ),
  warning: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7.5v5.5M12 16.3v.1" />
    </>
  ),
  logo: (
    <>
      <path d="M12 2 21 7v10l-9 5-9-5V7z" />
      <path d="M8 16V8l8 8V8" />
    </>
  ),
};

export function Icon({ name, className, title }: { name: IconName; className?: string; title?: string }): ReactElement {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
      focusable="false"
    >
      {title ? <title>{title}</title> : null}
      {PATHS[name]}
    </svg>
  );
}
