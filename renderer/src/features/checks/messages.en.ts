// In English, the Checks screen.
// The reference: messages.fr.ts must have the same keys (the type checker holds it).
export const en = {
  'checks.subtitle': 'The latest preflight run of each cluster; open a cluster’s Profile tab for its rules and evidence.',
  'checks.listLabel': 'Clusters and their latest checks',
  'checks.summary': '{failed} failed, {warned} warnings of {total} · {when}',
  'checks.loadFailed': 'Could not read the checks ({code})',
  'checks.empty.title': 'No cluster',
  'checks.empty.body': 'Create a cluster first; its checks will appear here.',
} as const;
