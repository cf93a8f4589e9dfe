// In English, the command palette.
// The reference: messages.fr.ts must have the same keys (the type checker holds it).
export const en = {
  'palette.label': 'Command palette',
  'palette.inputLabel': 'Screen, cluster or action',
  'palette.placeholder': 'Type a screen, a cluster or an action…',
  'palette.results': 'Results',
  'palette.noMatch': 'Nothing matches “{query}”',
  'palette.help': '↑ ↓ to move, Enter to go, Esc to close',
  'palette.goTo': 'go to screen',
  'palette.group.actions': 'Actions',
  'palette.group.screens': 'Screens',
  'palette.group.clusters': 'Clusters',
  'palette.action.newCluster': 'New cluster',
  'palette.action.openReport': 'Open and verify a report',
  'palette.action.verifyAudit': 'Verify the audit chain',
  'palette.action.toggleTheme': 'Switch between light and dark',
  'palette.action.toggleLanguage': 'Passer en français / Switch to English',
} as const;
