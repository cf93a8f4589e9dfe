// The words of the catalog's host checks of a service install (free ports, kernel settings, tools, capacity), in
// English and French side by side; the checks pass the values. Evidence stays in English.
import { bilingualTexts } from '../../contract/bilingual';

interface ServiceHostTexts {
  portsTitle: (service: string) => string;
  kernelTitle: (service: string) => string;
  toolsTitle: (service: string) => string;
  capacityTitle: (service: string) => string;
  portsBusy: (list: string) => string;
  kernelBelow: (list: string) => string;
  toolsMissing: (list: string) => string;
  capacityShort: (list: string) => string;
  notReported: (list: string) => string;
  noHost: string;
}

const en: ServiceHostTexts = {
  portsTitle: (s) => `The ports of ${s} are free on its hosts`,
  kernelTitle: (s) => `The kernel settings ${s} needs are met on its hosts`,
  toolsTitle: (s) => `The tools ${s} needs are on its hosts`,
  capacityTitle: (s) => `The hosts of ${s} have the CPU, memory and disk of an instance`,
  portsBusy: (l) => `Something already listens on: ${l}.`,
  kernelBelow: (l) => `Kernel settings below the minimum: ${l}.`,
  toolsMissing: (l) => `Commands missing from the PATH: ${l}.`,
  capacityShort: (l) => `Not enough for one instance: ${l}.`,
  notReported: (l) => `These hosts’ agents do not report this yet (upgrade them): ${l}.`,
  noHost: 'No host was chosen for the service.',
};

const fr: ServiceHostTexts = {
  portsTitle: (s) => `Les ports de ${s} sont libres sur ses hôtes`,
  kernelTitle: (s) => `Les réglages du noyau qu’exige ${s} sont respectés sur ses hôtes`,
  toolsTitle: (s) => `Les outils qu’exige ${s} sont présents sur ses hôtes`,
  capacityTitle: (s) => `Les hôtes de ${s} ont le processeur, la mémoire et le disque d’une instance`,
  portsBusy: (l) => `Un processus écoute déjà sur\u00a0: ${l}.`,
  kernelBelow: (l) => `Réglages du noyau sous le minimum\u00a0: ${l}.`,
  toolsMissing: (l) => `Commandes absentes du PATH\u00a0: ${l}.`,
  capacityShort: (l) => `Insuffisant pour une instance\u00a0: ${l}.`,
  notReported: (l) => `Les agents de ces hôtes ne le signalent pas encore (mettez-les à jour)\u00a0: ${l}.`,
  noHost: 'Aucun hôte n’a été choisi pour le service.',
};

export const SERVICE_HOST_TEXT = bilingualTexts(en, fr);
