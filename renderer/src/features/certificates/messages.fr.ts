// En français, l’écran Certificats et l’alerte du cadre pour les certificats à moins de 14 jours.
import type { en } from './messages.en';

export const fr: Record<keyof typeof en, string> = {
  'certificates.subtitle':
    'Tous les certificats émis par le produit (agents, services, console, passerelle), les plus proches de l’expiration d’abord',
  'certificates.listLabel': 'Certificats, les plus proches de l’expiration d’abord',
  'certificates.count.one': '{count} certificat',
  'certificates.count.other': '{count} certificats',
  'certificates.expiringOnly': 'Seulement ceux à moins de 14 jours',
  'certificates.empty.title': 'Aucun certificat émis pour l’instant',
  'certificates.empty.body':
    'Les agents, les services avec TLS, la console et la passerelle reçoivent leurs certificats du gestionnaire ; ils seront listés ici.',
  'certificates.noneExpiring': 'Aucun certificat en service n’expire dans les 14 jours.',
  'certificates.kind.agent': 'Agent de cluster',
  'certificates.kind.node-agent': 'Agent de nœud',
  'certificates.kind.service': 'Service',
  'certificates.kind.console': 'Console',
  'certificates.kind.gateway': 'Passerelle des agents',
  'certificates.state.issued': 'En service',
  'certificates.state.superseded': 'Remplacé',
  'certificates.state.revoked': 'Révoqué',
  'certificates.state.expired': 'Expiré',
  'certificates.issuer.manager': 'AC du gestionnaire',
  'certificates.issuer.service': 'AC des services {serial}',
  'certificates.sans': 'Noms : {names}',
  'certificates.serial': 'Numéro de série {serial}',
  'certificates.cluster': 'Cluster {cluster}',
  'certificates.notAfter': 'Valide jusqu’au',
  'certificates.daysLeft.one': '{count} jour restant',
  'certificates.daysLeft.other': '{count} jours restants',
  'certificates.daysPast.one': 'expiré depuis {count} jour',
  'certificates.daysPast.other': 'expiré depuis {count} jours',
  'certificates.expiringBadge': 'Moins de 14 jours',
  'certificates.alert.one': '{count} certificat en service expire dans moins de 14 jours :',
  'certificates.alert.other': '{count} certificats en service expirent dans moins de 14 jours :',
  'certificates.alert.first': '{subject} : {days}',
  'certificates.alert.open': 'Voir les certificats',
};
