// The fixed wording of the report page in English and French; the data (titles, reasons) carries its own.
import type { LineStatus, ReportVerdict } from '../../contract/check-types';
import type { ReportLanguage } from '../../contract/reports';

export { REPORT_LANGUAGES, type ReportLanguage } from '../../contract/reports';

export interface ReportWords {
  documentTitle: string;
  product: string;
  heading: string;
  verdict: string;
  verdictExplain: Record<ReportVerdict, string>;
  notValidAlone: string;
  notValidAloneDetail: string;
  details: string;
  cluster: string;
  clusterId: string;
  tenant: string;
  reportId: string;
  createdAt: string;
  createdBy: string;
  managerVersion: string;
  keyId: string;
  keyFingerprint: string;
  summary: string;
  lineCount: (n: number) => string;
  legend: Record<LineStatus, string>;
  checks: string;
  check: string;
  ranAt: string;
  whatRan: string;
  when: string;
  reason: string;
  observed: string;
  none: string;
  verifyHeading: string;
  verifySteps: [string, string, string, string];
  verifyExit: string;
  signature: string;
  footer: string;
}

export const WORDS: Record<ReportLanguage, ReportWords> = {
  en: {
    documentTitle: 'Acceptance report',
    product: 'Navin Console',
    heading: 'Signed acceptance report',
    verdict: 'Verdict',
    verdictExplain: {
      PASS: 'Every check ran and conforms (a WARN line conforms but needs attention soon).',
      FAIL: 'At least one check ran and does not conform.',
      BLOCKED: 'No check failed, but at least one could not run.',
    },
    notValidAlone: 'This page is not proof by itself.',
    notValidAloneDetail:
      'It is a readable rendering of the signed JSON report. Only the JSON file, verified against the manager’s public key, establishes that these results are authentic and unaltered.',
    details: 'Report details',
    cluster: 'Cluster',
    clusterId: 'Cluster ID',
    tenant: 'Tenant',
    reportId: 'Report ID',
    createdAt: 'Created at (UTC)',
    createdBy: 'Run by',
    managerVersion: 'Manager version',
    keyId: 'Signing key ID',
    keyFingerprint: 'Key fingerprint (SHA-256)',
    summary: 'Summary',
    lineCount: (n) => `${n} check${n === 1 ? '' : 's'}`,
    legend: {
      PASS: 'ran and conforms',
      WARN: 'ran and conforms, needs attention soon (the reason is given)',
      FAIL: 'ran and does not conform',
      BLOCKED: 'could not run (the reason is given)',
    },
    checks: 'Checks and evidence',
    check: 'Check',
    ranAt: 'Ran at',
    whatRan: 'What was run',
    when: 'When',
    reason: 'Reason',
    observed: 'Observed values',
    none: 'none',
    verifyHeading: 'How to verify this report',
    verifySteps: [
      'Download the signed report as JSON (report.json) from the console, and the manager’s public key manager.pem (Acceptance tab, or GET /api/v1/keys/manager.pem).',
      'Check that manager.pem is the key you expect: its key ID and SHA-256 fingerprint must match the values below, obtained from the manager through a channel you trust.',
      'Run, on any workstation, offline:',
      'Only a valid result makes the content of this page trustworthy. Any change to the JSON, even one status, makes the signature invalid.',
    ],
    verifyExit:
      'Exit code 0: the signature is valid and was made with this key. Exit code 1: the report is invalid (the reason is printed).',
    signature: 'Signature (Ed25519, base64url)',
    footer: 'Navin Console acceptance report',
  },
  fr: {
    documentTitle: 'Rapport de recette',
    product: 'Navin Console',
    heading: 'Rapport de recette signé',
    verdict: 'Verdict',
    verdictExplain: {
      PASS: 'Toutes les vérifications ont été exécutées et sont conformes (une ligne WARN est conforme mais à traiter bientôt).',
      FAIL: 'Au moins une vérification a été exécutée et n’est pas conforme.',
      BLOCKED: 'Aucune vérification n’a échoué, mais au moins une n’a pas pu s’exécuter.',
    },
    notValidAlone: 'Cette page ne constitue pas une preuve à elle seule.',
    notValidAloneDetail:
      'C’est une présentation lisible du rapport JSON signé. Seul le fichier JSON, vérifié avec la clé publique du manager, établit que ces résultats sont authentiques et non modifiés.',
    details: 'Détails du rapport',
    cluster: 'Cluster',
    clusterId: 'Identifiant du cluster',
    tenant: 'Locataire',
    reportId: 'Identifiant du rapport',
    createdAt: 'Créé le (UTC)',
    createdBy: 'Lancé par',
    managerVersion: 'Version du manager',
    keyId: 'Identifiant de la clé de signature',
    keyFingerprint: 'Empreinte de la clé (SHA-256)',
    summary: 'Synthèse',
    lineCount: (n) => `${n} vérification${n === 1 ? '' : 's'}`,
    legend: {
      PASS: 'exécutée et conforme',
      WARN: 'exécutée et conforme, à traiter bientôt (la raison est indiquée)',
      FAIL: 'exécutée et non conforme',
      BLOCKED: 'n’a pas pu s’exécuter (la raison est indiquée)',
    },
    checks: 'Vérifications et preuves',
    check: 'Vérification',
    ranAt: 'Exécutée le',
    whatRan: 'Ce qui a été exécuté',
    when: 'Quand',
    reason: 'Raison',
    observed: 'Valeurs constatées',
    none: 'aucune',
    verifyHeading: 'Comment vérifier ce rapport',
    verifySteps: [
      'Téléchargez le rapport signé au format JSON (report.json) depuis la console, ainsi que la clé publique du manager manager.pem (onglet Recette, ou GET /api/v1/keys/manager.pem).',
      'Vérifiez que manager.pem est bien la clé attendue : son identifiant et son empreinte SHA-256 doivent correspondre aux valeurs ci-dessous, obtenues du manager par un canal de confiance.',
      'Exécutez, sur n’importe quel poste, hors ligne :',
      'Seul un résultat valide rend le contenu de cette page digne de confiance. Toute modification du JSON, même d’un seul statut, invalide la signature.',
    ],
    verifyExit:
      'Code de sortie 0 : la signature est valide et a été faite avec cette clé. Code de sortie 1 : le rapport est invalide (la raison est affichée).',
    signature: 'Signature (Ed25519, base64url)',
    footer: 'Rapport de recette Navin Console',
  },
};
