// The words of the profile rules (each rule's title, the reasons a rule fails) in English and French, one
// table beside the other; rule-checks.ts passes the values. Evidence stays in English, as the reports keep it.
import { bilingualTexts } from '../../contract/bilingual';
import type { RuleId } from './profile-rules';

const enTitles: Record<RuleId, string> = {
  catalog_valid: 'Valid catalog: every component is a known service with a valid spec',
  console_tls: 'TLS on the console',
  agent_client_certificates: 'Agent client certificates required by the gateway',
  service_tls: 'TLS on every service that supports it',
  mfa_admin_roles: 'MFA required for administration roles',
  endpoint_tls: 'TLS on every endpoint',
  mfa_local_admins: 'MFA enrolled by every local administrator',
  mirror_only: 'Internal mirror only',
  syslog_remote_audit: 'Remote audit (syslog) configured and reachable',
  no_sandbox: 'No sandbox service',
  four_eyes: 'Second-person approval for every disruptive operation',
  private_egress: 'No bound connection or webhook outside private networks',
  customer_connections_tls: "TLS on every connection to the customer's infrastructure",
};

const frTitles: Record<RuleId, string> = {
  catalog_valid: 'Catalogue valide : chaque composant est un service connu avec une spécification valide',
  console_tls: 'TLS sur la console',
  agent_client_certificates: 'Certificats clients des agents exigés par la passerelle',
  service_tls: 'TLS sur chaque service qui le prend en charge',
  mfa_admin_roles: "MFA exigée pour les rôles d'administration",
  endpoint_tls: 'TLS sur chaque point de terminaison',
  mfa_local_admins: 'MFA enrôlée par chaque administrateur local',
  mirror_only: 'Miroir seul',
  syslog_remote_audit: 'Audit distant (syslog) configuré et joignable',
  no_sandbox: 'Aucun service de bac à sable',
  four_eyes: "Approbation d'une seconde personne pour chaque opération perturbatrice",
  private_egress: 'Aucune connexion liée ni webhook hors des réseaux privés',
  customer_connections_tls: "TLS sur chaque connexion vers l'infrastructure du client",
};

/** The title of each rule, in both languages. */
export const RULE_TITLES = bilingualTexts(enTitles, frTitles);

interface RuleTexts {
  consoleListenerUnknown: string;
  consoleHandshakeFailed: (message: string) => string;
  certificateExpiresIn: (days: number | undefined) => string;
  noGateway: string;
  gatewayProbeFailed: (error: string) => string;
  gatewayAnsweredClient: (status: number | null, withoutCertificate: boolean) => string;
  notTlsOrUntrusted: (list: string) => string;
  noServiceEndpoint: string;
  noTotp: (names: string) => string;
  noMirror: string;
  imagesNotFromMirror: (images: string) => string;
  mirrorNotTrustedTls: (message: string) => string;
  noSyslogTarget: string;
  syslogUnreachable: (message: string) => string;
  forwarderFailing: (pending: number, message: string) => string;
  sandboxesPresent: (names: string) => string;
  secondAdminNeeded: (admins: number) => string;
  outsidePrivateNetworks: (list: string) => string;
  problems: (problems: string[]) => string;
  catalogInvalid: (list: string) => string;
  componentsInvalid: (list: string) => string;
  versionsUndeclared: (items: { component: string; service: string; version: string; declared: string[] }[]) => string;
  checkCouldNotRun: (message: string) => string;
}

const en: RuleTexts = {
  catalogInvalid: (list) => `the catalog is invalid: ${list}`,
  componentsInvalid: (list) => list,
  versionsUndeclared: (items) =>
    items.map((u) => `${u.component}: ${u.service} ${u.version} is not in the catalog (declared: ${u.declared.join(', ')})`).join('; '),
  consoleListenerUnknown: 'the console listener of this manager is not known',
  consoleHandshakeFailed: (m) => `the console listener did not complete a trusted TLS handshake: ${m}`,
  certificateExpiresIn: (d) => `its certificate expires in ${d} days`,
  noGateway: 'no agent gateway runs in this manager',
  gatewayProbeFailed: (error) => error,
  gatewayAnsweredClient: (status, none) =>
    `the gateway answered HTTP ${status} to a client with ${none ? 'no certificate' : 'a foreign certificate'}`,
  notTlsOrUntrusted: (list) => `not TLS or not trusted: ${list}`,
  noServiceEndpoint: 'no service endpoint to evaluate: no component of this cluster declares an endpoint',
  noTotp: (names) => `no TOTP enrolled for: ${names}`,
  noMirror: 'no internal mirror is configured (Settings, mirror)',
  imagesNotFromMirror: (images) => `images not pulled from the mirror: ${images}`,
  mirrorNotTrustedTls: (m) => `the mirror cannot be reached over trusted TLS: ${m}`,
  noSyslogTarget: 'no syslog target is configured (Settings, remote audit)',
  syslogUnreachable: (m) => `the syslog target is not reachable: ${m}`,
  forwarderFailing: (pending, m) => `the audit forwarder cannot deliver (${pending} rows waiting): ${m}`,
  sandboxesPresent: (names) => `sandbox services present: ${names}`,
  secondAdminNeeded: (n) => `${n} admin account(s): a second admin is needed to approve operations`,
  outsidePrivateNetworks: (list) => `outside private networks or unresolved: ${list}`,
  problems: (problems) => problems.join('; '),
  checkCouldNotRun: (m) => `the check could not run: ${m}`,
};

const fr: RuleTexts = {
  catalogInvalid: (list) => `le catalogue est invalide : ${list}`,
  componentsInvalid: (list) => list,
  versionsUndeclared: (items) =>
    items
      .map((u) => `${u.component} : ${u.service} ${u.version} n'est pas au catalogue (déclarées : ${u.declared.join(', ')})`)
      .join(' ; '),
  consoleListenerUnknown: "l'écoute de la console de ce gestionnaire n'est pas connue",
  consoleHandshakeFailed: (m) => `l'écoute de la console n'a pas réussi de poignée de main TLS approuvée : ${m}`,
  certificateExpiresIn: (d) => `son certificat expire dans ${d} jours`,
  noGateway: "aucune passerelle d'agents ne tourne dans ce gestionnaire",
  gatewayProbeFailed: (error) => `sonde de la passerelle : ${error}`,
  gatewayAnsweredClient: (status, none) =>
    `la passerelle a répondu HTTP ${status} à un client ${none ? 'sans certificat' : 'au certificat étranger'}`,
  notTlsOrUntrusted: (list) => `pas en TLS ou non approuvé : ${list}`,
  noServiceEndpoint: 'aucun point de terminaison de service à évaluer : aucun composant de ce cluster n’en déclare',
  noTotp: (names) => `aucun TOTP enrôlé pour : ${names}`,
  noMirror: "aucun miroir interne n'est configuré (Paramètres, miroir)",
  imagesNotFromMirror: (images) => `images non tirées du miroir : ${images}`,
  mirrorNotTrustedTls: (m) => `le miroir n'est pas joignable en TLS approuvé : ${m}`,
  noSyslogTarget: "aucune cible syslog n'est configurée (Paramètres, audit distant)",
  syslogUnreachable: (m) => `la cible syslog n'est pas joignable : ${m}`,
  forwarderFailing: (pending, m) => `le transfert de l'audit échoue (${pending} lignes en attente) : ${m}`,
  sandboxesPresent: (names) => `services de bac à sable présents : ${names}`,
  secondAdminNeeded: (n) => `${n} compte(s) admin : un second admin est nécessaire pour approuver les opérations`,
  outsidePrivateNetworks: (list) => `hors des réseaux privés ou non résolu : ${list}`,
  problems: (problems) => problems.join(' ; '),
  checkCouldNotRun: (m) => `la vérification n'a pas pu s'exécuter : ${m}`,
};

export const TEXT = bilingualTexts(en, fr);
