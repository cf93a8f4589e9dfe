// The words of the acceptance report's own lines (agent.mtls, agent.config, inventory.fresh,
// components.declared) in English and French, one table beside the other. The fixed wording of the report
// page is in report-i18n.ts; the lines of the shared checks in checks/check-texts.ts.
import { bilingualTexts } from '../../contract/bilingual';

interface LineTexts {
  mtlsTitle: string;
  probeFailed: (error: string) => string;
  gatewayAnswered: (status: number | null, withoutCertificate: boolean) => string;
  gatewayUntrusted: string;
  oldTls: (version: string) => string;
  noRefusal: string;
  neverConnected: string;
  lastSeenLongAgo: (lastSeen: string, seconds: number) => string;
  gatewayUnknown: string;
  configTitle: string;
  noIdentity: string;
  certificateRevoked: (serial: string, at: string | null) => string;
  certificateExpired: (serial: string, at: string) => string;
  signerNotTrusted: (keyId: string | undefined) => string;
  activeKeyUnlisted: (keyId: string) => string;
  neverPresented: string;
  otherCertificate: (presented: string, latest: string) => string;
  inventoryTitle: string;
  noInventory: string;
  inventoryOld: (takenAt: string) => string;
  componentsTitle: string;
  noComponent: string;
}

const en: LineTexts = {
  mtlsTitle: 'The agent is connected to the gateway over mTLS',
  probeFailed: (error) => error,
  gatewayAnswered: (status, none) =>
    `the gateway answered HTTP ${status} to a client ${none ? 'without a client certificate' : 'with a certificate from another CA'}: it does not require a certificate of the manager CA`,
  gatewayUntrusted: 'the gateway certificate is not trusted by the manager CA',
  oldTls: (v) => `the gateway negotiated ${v}, older than TLS 1.2`,
  noRefusal: 'the gateway neither answered nor refused the client',
  neverConnected: 'the agent has never connected to the gateway',
  lastSeenLongAgo: (last, s) => `the agent was last seen at ${last}, more than ${s} s ago`,
  gatewayUnknown:
    'the gateway address is not known to this manager (no embedded gateway), so its client-certificate requirement could not be probed',
  configTitle: 'The agent runs the signed configuration in force',
  noIdentity: 'no agent identity was ever issued for this cluster',
  certificateRevoked: (serial, at) => `the latest client certificate ${serial} was revoked at ${at}`,
  certificateExpired: (serial, at) => `the latest client certificate ${serial} expired at ${at}`,
  signerNotTrusted: (key) => `the key that signed the agent config (${key ?? 'unknown'}) is no longer trusted: issue a new agent identity`,
  activeKeyUnlisted: (key) =>
    `the active signing key ${key} is newer than the agent config, which does not list it: the agent would refuse new commands`,
  neverPresented: 'the agent has never presented a certificate to the gateway, so the identity it runs with is unknown',
  otherCertificate: (presented, latest) => `the agent presented certificate ${presented}, not the latest issued ${latest}`,
  inventoryTitle: 'The cluster inventory is fresh (under 15 minutes)',
  noInventory: 'no inventory was ever taken: register the cluster or connect its agent',
  inventoryOld: (at) => `the latest inventory was taken at ${at}, more than 15 minutes ago`,
  componentsTitle: 'The cluster has managed components to accept',
  noComponent: 'the desired state has no component: no service check could run',
};

const fr: LineTexts = {
  mtlsTitle: "L'agent est connecté à la passerelle en mTLS",
  probeFailed: (error) => `sonde TLS en échec : ${error}`,
  gatewayAnswered: (status, none) =>
    `la passerelle a répondu HTTP ${status} à un client ${none ? 'sans certificat client' : "avec un certificat d'une autre autorité"} : elle n'exige pas de certificat de l'autorité du manager`,
  gatewayUntrusted: "le certificat de la passerelle n'est pas reconnu par l'autorité du manager",
  oldTls: (v) => `la passerelle a négocié ${v}, antérieur à TLS 1.2`,
  noRefusal: "la passerelle n'a ni répondu ni refusé le client",
  neverConnected: "l'agent ne s'est jamais connecté à la passerelle",
  lastSeenLongAgo: (last, s) => `l'agent a été vu pour la dernière fois à ${last}, il y a plus de ${s} s`,
  gatewayUnknown:
    "l'adresse de la passerelle n'est pas connue de ce manager (pas de passerelle intégrée) : l'exigence d'un certificat client n'a pas pu être sondée",
  configTitle: "L'agent applique la configuration signée en vigueur",
  noIdentity: "aucune identité d'agent n'a été émise pour ce cluster",
  certificateRevoked: (serial, at) => `le dernier certificat client ${serial} a été révoqué à ${at}`,
  certificateExpired: (serial, at) => `le dernier certificat client ${serial} a expiré à ${at}`,
  signerNotTrusted: (key) =>
    `la clé qui a signé la configuration de l'agent (${key ?? 'inconnue'}) n'est plus de confiance : émettez une nouvelle identité d'agent`,
  activeKeyUnlisted: (key) =>
    `la clé de signature active ${key} est plus récente que la configuration de l'agent, qui ne la liste pas : l'agent refuserait les nouvelles commandes`,
  neverPresented: "l'agent n'a jamais présenté de certificat à la passerelle : l'identité avec laquelle il tourne est inconnue",
  otherCertificate: (presented, latest) => `l'agent a présenté le certificat ${presented}, et non le dernier émis ${latest}`,
  inventoryTitle: "L'inventaire du cluster est récent (moins de 15 minutes)",
  noInventory: "aucun inventaire n'a jamais été relevé : enregistrez le cluster ou connectez son agent",
  inventoryOld: (at) => `le dernier inventaire date de ${at}, il y a plus de 15 minutes`,
  componentsTitle: 'Le cluster a des composants gérés à recetter',
  noComponent: "l'état voulu ne contient aucun composant : aucune vérification de service n'a pu s'exécuter",
};

export const TEXT = bilingualTexts(en, fr);
