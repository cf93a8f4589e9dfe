// The words of the acceptance report's service lines (install source, liveness, readiness, functional test) in
// English and French, one table beside the other.
import { bilingualTexts } from '../../contract/bilingual';

interface ServiceLineTexts {
  sourceTitle: (service: string, version: string) => string;
  livenessTitle: (service: string, host: string) => string;
  readinessTitle: (service: string) => string;
  functionalTitle: (service: string) => string;
  notRunNow: string;
  neverRun: string;
  failed: (code: string, message: string) => string;
  /** A pass that needs attention soon: the agent's warning, its message as it wrote it. */
  warned: (code: string, message: string) => string;
  noInstallRecord: string;
  notFromMirror: (list: string) => string;
  servicesTitle: string;
  noService: string;
}

const en: ServiceLineTexts = {
  sourceTitle: (s, v) => `${s} ${v} was installed from the internal mirror, by digest`,
  livenessTitle: (s, h) => `The ${s} instance on ${h} is live`,
  readinessTitle: (s) => `${s} is ready as a service`,
  functionalTitle: (s) => `${s} passes its functional test`,
  notRunNow: 'the check could not run for this report (an earlier step of the same run failed, or the agent did not answer in time)',
  neverRun: 'the check has never run',
  failed: (code, message) => `${code}: ${message}`,
  warned: (code, message) => `passes, but needs attention soon (${code}): ${message}`,
  noInstallRecord: 'no install of this version by the console is on record, so its source is unknown',
  notFromMirror: (l) => `not the catalog’s digest from the mirror: ${l}`,
  servicesTitle: 'The cluster has services to accept',
  noService: 'no service is installed on this cluster: no service check could run',
};

const fr: ServiceLineTexts = {
  sourceTitle: (s, v) => `${s} ${v} a été installé depuis le miroir interne, par empreinte`,
  livenessTitle: (s, h) => `L’instance ${s} sur ${h} est vivante`,
  readinessTitle: (s) => `${s} est prêt en tant que service`,
  functionalTitle: (s) => `${s} réussit son test fonctionnel`,
  notRunNow:
    'la vérification n’a pas pu s’exécuter pour ce rapport (une étape précédente du même passage a échoué, ou l’agent n’a pas répondu à temps)',
  neverRun: 'la vérification ne s’est jamais exécutée',
  failed: (code, message) => `${code}\u00a0: ${message}`,
  warned: (code, message) => `conforme, mais à traiter bientôt (${code})\u00a0: ${message}`,
  noInstallRecord: 'aucune installation de cette version par la console n’est enregistrée\u00a0: sa source est inconnue',
  notFromMirror: (l) => `pas l’empreinte du catalogue depuis le miroir\u00a0: ${l}`,
  servicesTitle: 'Le cluster a des services à réceptionner',
  noService: 'aucun service n’est installé sur ce cluster\u00a0: aucune vérification de service n’a pu s’exécuter',
};

export const SERVICE_LINE_TEXT = bilingualTexts(en, fr);
