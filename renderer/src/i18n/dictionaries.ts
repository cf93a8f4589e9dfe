// The one dictionary per locale, assembled from its parts: the words several features share (here in i18n/) and
// each feature’s own, beside its screens (features/<domain>/messages.*.ts). A key lives in one part only, and
// every part has its French twin with the same keys (test/renderer/i18n-parts.test.ts).
import { en as commonEn } from './common.en';
import { fr as commonFr } from './common.fr';
import { en as errorsEn } from './errors.en';
import { fr as errorsFr } from './errors.fr';
import { en as approvalsEn } from '../features/approvals/messages.en';
import { fr as approvalsFr } from '../features/approvals/messages.fr';
import { en as auditEn } from '../features/audit/messages.en';
import { fr as auditFr } from '../features/audit/messages.fr';
import { en as certificatesEn } from '../features/certificates/messages.en';
import { fr as certificatesFr } from '../features/certificates/messages.fr';
import { en as checksEn } from '../features/checks/messages.en';
import { fr as checksFr } from '../features/checks/messages.fr';
import { en as clusterEn } from '../features/cluster/messages.en';
import { fr as clusterFr } from '../features/cluster/messages.fr';
import { en as clustersEn } from '../features/clusters/messages.en';
import { fr as clustersFr } from '../features/clusters/messages.fr';
import { en as commandsEn } from '../features/commands/messages.en';
import { fr as commandsFr } from '../features/commands/messages.fr';
import { en as componentsEn } from '../features/components/messages.en';
import { fr as componentsFr } from '../features/components/messages.fr';
import { en as hostsEn } from '../features/hosts/messages.en';
import { fr as hostsFr } from '../features/hosts/messages.fr';
import { en as hostsCareEn } from '../features/hosts-care/messages.en';
import { fr as hostsCareFr } from '../features/hosts-care/messages.fr';
import { en as mirrorEn } from '../features/mirror/messages.en';
import { fr as mirrorFr } from '../features/mirror/messages.fr';
import { en as paletteEn } from '../features/palette/messages.en';
import { fr as paletteFr } from '../features/palette/messages.fr';
import { en as profileEn } from '../features/profile/messages.en';
import { fr as profileFr } from '../features/profile/messages.fr';
import { en as reportsEn } from '../features/reports/messages.en';
import { fr as reportsFr } from '../features/reports/messages.fr';
import { en as serviceSheetEn } from '../features/service-sheet/messages.en';
import { fr as serviceSheetFr } from '../features/service-sheet/messages.fr';
import { en as servicesEn } from '../features/services/messages.en';
import { fr as servicesFr } from '../features/services/messages.fr';
import { en as sessionEn } from '../features/session/messages.en';
import { fr as sessionFr } from '../features/session/messages.fr';
import { en as settingsEn } from '../features/settings/messages.en';
import { fr as settingsFr } from '../features/settings/messages.fr';

/** Every part by name, for the tests that hold the parts apart. */
export const MESSAGE_PARTS = {
  common: { en: commonEn, fr: commonFr },
  errors: { en: errorsEn, fr: errorsFr },
  approvals: { en: approvalsEn, fr: approvalsFr },
  audit: { en: auditEn, fr: auditFr },
  certificates: { en: certificatesEn, fr: certificatesFr },
  checks: { en: checksEn, fr: checksFr },
  cluster: { en: clusterEn, fr: clusterFr },
  clusters: { en: clustersEn, fr: clustersFr },
  commands: { en: commandsEn, fr: commandsFr },
  components: { en: componentsEn, fr: componentsFr },
  hosts: { en: hostsEn, fr: hostsFr },
  'hosts-care': { en: hostsCareEn, fr: hostsCareFr },
  mirror: { en: mirrorEn, fr: mirrorFr },
  palette: { en: paletteEn, fr: paletteFr },
  profile: { en: profileEn, fr: profileFr },
  reports: { en: reportsEn, fr: reportsFr },
  'service-sheet': { en: serviceSheetEn, fr: serviceSheetFr },
  services: { en: servicesEn, fr: servicesFr },
  session: { en: sessionEn, fr: sessionFr },
  settings: { en: settingsEn, fr: settingsFr },
} as const;

export const en = {
  ...commonEn,
  ...errorsEn,
  ...approvalsEn,
  ...auditEn,
  ...certificatesEn,
  ...checksEn,
  ...clusterEn,
  ...clustersEn,
  ...commandsEn,
  ...componentsEn,
  ...hostsEn,
  ...hostsCareEn,
  ...mirrorEn,
  ...paletteEn,
  ...profileEn,
  ...reportsEn,
  ...serviceSheetEn,
  ...servicesEn,
  ...sessionEn,
  ...settingsEn,
};

export type Messages = typeof en;
export type MessageKey = keyof Messages;

export const fr: Record<MessageKey, string> = {
  ...commonFr,
  ...errorsFr,
  ...approvalsFr,
  ...auditFr,
  ...certificatesFr,
  ...checksFr,
  ...clusterFr,
  ...clustersFr,
  ...commandsFr,
  ...componentsFr,
  ...hostsFr,
  ...hostsCareFr,
  ...mirrorFr,
  ...paletteFr,
  ...profileFr,
  ...reportsFr,
  ...serviceSheetFr,
  ...servicesFr,
  ...sessionFr,
  ...settingsFr,
};
