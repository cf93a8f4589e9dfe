// En français, les mêmes clés que messages.en.ts (le type l’impose), en typographie française (i18n.test.ts).
import type { en } from './messages.en';

export const fr: Record<keyof typeof en, string> = {
  'hosts.liveNote': 'En direct : faits et connexions se mettent à jour quand les agents remontent.',
  'hosts.empty.title': 'Aucun hôte',
  'hosts.empty.body':
    'Ajoutez chaque hôte avec son nom et son adresse, puis émettez l’identité de son agent et installez le paquet sur l’hôte.',
  'hosts.caption': 'Hôtes de ce cluster',
  'hosts.col.host': 'Hôte',
  'hosts.col.state': 'Connexion',
  'hosts.col.facts': 'Faits',
  'hosts.col.agent': 'Version de l’agent',
  'hosts.col.lastReport': 'Dernier rapport',
  'hosts.col.actions': 'Actions',
  'hosts.facts.none': 'Aucun fait remonté',
  'hosts.facts.os': 'Système',
  'hosts.facts.arch': 'Architecture',
  'hosts.facts.cpu': 'Processeur',
  'hosts.facts.cores': '{count} cœurs',
  'hosts.facts.memory': 'Mémoire',
  'hosts.facts.gib': '{total} Gio ({free} Gio disponibles)',
  'hosts.facts.disks': 'Disques',
  'hosts.facts.disk': '{mount} : {free} Gio libres sur {size}',
  'hosts.facts.systemd': 'systemd',
  'hosts.facts.noSystemd': 'absent',
  'hosts.agent.seen': 'vu {when}',
  'hosts.action.report': 'Remonter les faits',
  'hosts.action.identity': 'Identité de l’agent…',
  'hosts.action.remove': 'Retirer l’hôte',
  'hosts.remove.confirm':
    'Retirer l’hôte « {name} » ? Son enregistrement quitte le gestionnaire et les certificats de son agent sont révoqués.',
  'hosts.remove.submit': 'Retirer',
  'hosts.identity.gateway': 'URL de la passerelle',
  'hosts.identity.gatewayHelp':
    'Comment cet hôte joint la passerelle des agents du manager. Une nouvelle identité révoque aussitôt la précédente.',
  'hosts.identity.issue': 'Émettre l’identité',
  'hosts.identity.issuing': 'Émission…',
  'hosts.identity.title': 'Identité de l’agent de {host}',
  'hosts.identity.keyOnce':
    'La clé privée (tls.key) n’est affichée que maintenant et le manager ne la garde pas : enregistrez les fichiers avant de fermer.',
  'hosts.identity.steps':
    'Sur l’hôte, dans un dossier contenant {file} et les cinq fichiers ci-dessous, lancez ces commandes (l’identité va dans {dir}).',
  'hosts.identity.commands': 'Commandes d’installation',
  'hosts.identity.done': 'J’ai enregistré les fichiers',
  'hosts.add.title': 'Ajouter un hôte',
  'hosts.add.name': 'Nom',
  'hosts.add.nameHelp': 'Un seul libellé DNS, par ex. node-1.',
  'hosts.add.address': 'Adresse',
  'hosts.add.submit': 'Ajouter l’hôte',
  'hosts.add.adding': 'Ajout…',
};
