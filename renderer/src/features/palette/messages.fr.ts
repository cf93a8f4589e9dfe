// En français, les mêmes clés que messages.en.ts (le type l’impose), en typographie française (i18n.test.ts).
import type { en } from './messages.en';

export const fr: Record<keyof typeof en, string> = {
  'palette.label': 'Palette de commandes',
  'palette.inputLabel': 'Écran, cluster ou action',
  'palette.placeholder': 'Tapez un écran, un cluster ou une action…',
  'palette.results': 'Résultats',
  'palette.noMatch': 'Rien ne correspond à « {query} »',
  'palette.help': '↑ ↓ pour se déplacer, Entrée pour y aller, Échap pour fermer',
  'palette.goTo': 'aller écran',
  'palette.group.actions': 'Actions',
  'palette.group.screens': 'Écrans',
  'palette.group.clusters': 'Clusters',
  'palette.action.newCluster': 'Nouveau cluster',
  'palette.action.openReport': 'Ouvrir et vérifier un rapport',
  'palette.action.verifyAudit': 'Vérifier la chaîne d’audit',
  'palette.action.toggleTheme': 'Basculer entre clair et sombre',
  'palette.action.toggleLanguage': 'Switch to English / Passer en français',
};
