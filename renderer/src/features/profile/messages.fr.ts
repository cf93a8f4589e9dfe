// En français, les mêmes clés que messages.en.ts (le type l’impose), en typographie française (i18n.test.ts).
import type { en } from './messages.en';

export const fr: Record<keyof typeof en, string> = {
  'profile.title': 'Profil d’installation',
  'profile.status.compliant': 'Conforme',
  'profile.status.blocked': 'Bloqué',
  'profile.evaluatedAt': 'Évalué le {when}',
  'profile.blockedHelp':
    'Tant que le profil est bloqué, les installations, mises à niveau, commandes, démarrages et redémarrages sont refusés ; l’arrêt, la désinstallation, la configuration, le retour arrière et la sauvegarde restent possibles pour remettre le cluster en conformité.',
  'profile.fourEyes':
    'Règle des quatre yeux : ces opérations exigent l’approbation d’un autre administrateur, utilisable une seule fois dans les 24 heures : {actions}.',
  'profile.change': 'Changer de profil',
  'profile.apply': 'Appliquer le profil',
  'profile.rules': 'Règles du profil',
  'profile.endpoint.title': 'FQDN et adresse',
  'profile.endpoint.help': 'Les règles DNS et TLS vérifient le cluster à ce nom et à cette adresse. Laissez un champ vide pour l’effacer.',
  'preflight.title': 'Vérifications préalables',
  'preflight.help':
    'Exécutées au début de chaque installation et de chaque mise à niveau, et à la demande : faits de l’hôte, DNS direct et inverse, vérifications du catalogue, capacité, versions, TLS et règles du profil. Un seul échec critique arrête l’opération avant l’écriture du moindre fichier.',
  'preflight.ranBy': 'Terminées le {when} par {by} ({trigger})',
  'backups.restore.component': 'Composant à restaurer',
  'backups.restore.submit': 'Restaurer',
  'backups.restore.running': 'Restauration…',
  'backups.restore.done': 'Restauration envoyée, commande {id}.',
  'backups.title': 'Sauvegardes',
  'backups.now': 'Sauvegarder maintenant',
  'backups.running': 'Sauvegarde…',
  'backups.none': 'Aucune sauvegarde.',
  'backups.noFiles': 'Aucun fichier dans cet ensemble.',
  'backups.by': 'par {by} · ensemble {id}',
  'backups.filesOf': 'Fichiers de l’ensemble de sauvegarde {id}',
  'backups.col.name': 'Service',
  'backups.col.file': 'Fichier',
  'backups.col.size': 'Taille',
  'backups.col.sha256': 'Empreinte SHA-256',
};
