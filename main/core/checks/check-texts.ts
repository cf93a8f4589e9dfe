// The words of the report lines built in checks/ (component.<name>, functional.<name>,
// install.offline_source.<name>) in English and French, one table beside the other.
import { bilingualTexts } from '../../contract/bilingual';

interface CheckTexts {
  componentTitle: (name: string) => string;
  componentNoAccess: (serviceAccount: string) => string;
  componentDiffers: (paths: string) => string;
  componentMissing: (name: string, namespace: string) => string;
  kubeCallFailed: (code: string, message: string) => string;
  functionalTitle: (name: string) => string;
  noFunctionalTest: string;
  offlineSourceTitle: (name: string) => string;
  noArtifact: string;
  noMirror: string;
  notResolved: (missing: { image: string; notFound: boolean; problem: string }[]) => string;
}

const en: CheckTexts = {
  componentTitle: (n) => `Component ${n} in the cluster matches its desired spec`,
  componentNoAccess: (sa) => `the cluster has no registered import access (${sa} kubeconfig), so the component could not be read`,
  componentDiffers: (paths) => `the spec in the cluster differs from the desired spec at ${paths}`,
  componentMissing: (n, ns) => `ManagedComponent ${n} does not exist in namespace ${ns} (404)`,
  kubeCallFailed: (code, m) => `the Kubernetes API call failed (${code}): ${m}`,
  functionalTitle: (n) => `Functional test of ${n}`,
  noFunctionalTest: 'no functional test is declared for this component (they come with the service lifecycle)',
  offlineSourceTitle: (n) => `Every artifact of ${n} comes from the internal mirror`,
  noArtifact: 'no artifact declared: the component names no image, so there is nothing to look up in the mirror',
  noMirror: 'no internal mirror is configured (Settings, mirror URL)',
  notResolved: (missing) =>
    `not resolved in the mirror: ${missing.map((l) => `${l.image} (${l.notFound ? '404, not in the mirror' : l.problem})`).join(', ')}`,
};

const fr: CheckTexts = {
  componentTitle: (n) => `Le composant ${n} du cluster est conforme à sa spécification voulue`,
  componentNoAccess: (sa) => `le cluster n'a pas d'accès d'import enregistré (kubeconfig ${sa}) : le composant n'a pas pu être lu`,
  componentDiffers: (paths) => `la spécification du cluster diffère de la spécification voulue en ${paths}`,
  componentMissing: (n, ns) => `le ManagedComponent ${n} n'existe pas dans l'espace de noms ${ns} (404)`,
  kubeCallFailed: (code, m) => `l'appel à l'API Kubernetes a échoué (${code}) : ${m}`,
  functionalTitle: (n) => `Test fonctionnel de ${n}`,
  noFunctionalTest: "aucun test fonctionnel n'est déclaré pour ce composant (ils viennent avec le cycle de vie des services)",
  offlineSourceTitle: (n) => `Chaque artefact de ${n} vient du miroir interne`,
  noArtifact: "aucun artefact déclaré : le composant ne nomme aucune image, il n'y a rien à chercher dans le miroir",
  noMirror: "aucun miroir interne n'est configuré (Paramètres, URL du miroir)",
  notResolved: (missing) =>
    `non trouvé dans le miroir : ${missing.map((l) => `${l.image} (${l.notFound ? '404, absent du miroir' : l.problem})`).join(', ')}`,
};

export const TEXT = bilingualTexts(en, fr);
