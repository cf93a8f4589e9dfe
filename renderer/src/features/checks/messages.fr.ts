// En français, les mêmes clés que messages.en.ts (le type l’impose), en typographie française (i18n.test.ts).
import type { en } from './messages.en';

export const fr: Record<keyof typeof en, string> = {
  'checks.subtitle':
    'La dernière exécution des vérifications préalables de chaque cluster ; l’onglet Profil d’un cluster montre ses règles et leurs preuves.',
  'checks.listLabel': 'Clusters et leurs dernières vérifications',
  'checks.summary': '{failed} en échec, {warned} avertissements sur {total} · {when}',
  'checks.loadFailed': 'Lecture des vérifications impossible ({code})',
  'checks.empty.title': 'Aucun cluster',
  'checks.empty.body': 'Créez d’abord un cluster ; ses vérifications apparaîtront ici.',
};
