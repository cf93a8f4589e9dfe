// The words of the hosts preflight checks (titles, what was seen on a host, why a check fails or warns) in
// English and French, one table beside the other; the checks pass the values. Evidence stays in English.
import { bilingualTexts } from '../../contract/bilingual';

interface HostTexts {
  osTitle: string;
  archTitle: string;
  memoryTitle: string;
  disksTitle: string;
  systemdTitle: string;
  factsTitle: string;
  agentTitle: string;
  cpuTitle: string;
  // What a host shows, named in a failure.
  memorySeen: (size: string) => string;
  diskFree: (size: string, mount: string) => string;
  noDisk: string;
  systemdSeen: (version: string, state: string | null) => string;
  noSystemd: string;
  noFacts: string;
  // Why a check fails or warns.
  noHostYet: string;
  notSupported: string;
  archNotSupported: string;
  memoryBelow: (size: string) => string;
  diskBelow: (size: string, path: string) => string;
  systemdNeeded: (version: number) => string;
  failing: (requirement: string, hosts: string) => string;
  noHost: string;
  factsOld: (hosts: string) => string;
  agentsBehind: (hosts: string) => string;
  fewCores: (hosts: string) => string;
}

const en: HostTexts = {
  osTitle: 'Hosts run a supported operating system',
  archTitle: 'Hosts have a supported architecture',
  memoryTitle: 'Hosts have enough memory',
  disksTitle: 'Hosts have free disk space for service data',
  systemdTitle: 'Hosts run systemd',
  factsTitle: 'Host facts are recent',
  agentTitle: 'Node agents are connected and of this version',
  cpuTitle: 'Hosts have at least two CPU cores',
  memorySeen: (size) => `${size} of memory`,
  diskFree: (size, mount) => `${size} free on ${mount}`,
  noDisk: 'no disk reported',
  systemdSeen: (v, state) => `systemd ${v}, ${state ?? 'state unknown'}`,
  noSystemd: 'no systemd',
  noFacts: 'no facts reported',
  noHostYet: 'the cluster has no host yet',
  notSupported: 'not supported',
  archNotSupported: 'not supported',
  memoryBelow: (size) => `less than ${size}`,
  diskBelow: (size, path) => `less than ${size} free for ${path}`,
  systemdNeeded: (v) => `systemd ${v} or newer, running, is needed`,
  failing: (requirement, hosts) => `${requirement}: ${hosts}`,
  noHost: 'no host',
  factsOld: (hosts) => `facts older than 10 minutes or missing: ${hosts}`,
  agentsBehind: (hosts) => `not connected or another version: ${hosts}`,
  fewCores: (hosts) => `fewer than two cores: ${hosts}`,
};

const fr: HostTexts = {
  osTitle: "Les hôtes ont un système d'exploitation pris en charge",
  archTitle: 'Les hôtes ont une architecture prise en charge',
  memoryTitle: 'Les hôtes ont assez de mémoire',
  disksTitle: 'Les hôtes ont de la place disque pour les données des services',
  systemdTitle: 'Les hôtes utilisent systemd',
  factsTitle: 'Les faits des hôtes sont récents',
  agentTitle: 'Les agents des hôtes sont connectés et de cette version',
  cpuTitle: 'Les hôtes ont au moins deux cœurs',
  memorySeen: (size) => `${size} de mémoire`,
  diskFree: (size, mount) => `${size} libres sur ${mount}`,
  noDisk: 'aucun disque remonté',
  systemdSeen: (v, state) => `systemd ${v}, ${state ?? 'état inconnu'}`,
  noSystemd: 'pas de systemd',
  noFacts: 'aucun fait remonté',
  noHostYet: "le cluster n'a encore aucun hôte",
  notSupported: 'non pris en charge',
  archNotSupported: 'non prise en charge',
  memoryBelow: (size) => `moins de ${size}`,
  diskBelow: (size, path) => `moins de ${size} libres pour ${path}`,
  systemdNeeded: (v) => `systemd ${v} ou plus récent, en marche, est requis`,
  failing: (requirement, hosts) => `${requirement} : ${hosts}`,
  noHost: 'aucun hôte',
  factsOld: (hosts) => `faits de plus de 10 minutes ou absents : ${hosts}`,
  agentsBehind: (hosts) => `non connectés ou d'une autre version : ${hosts}`,
  fewCores: (hosts) => `moins de deux cœurs : ${hosts}`,
};

export const HOST_TEXT = bilingualTexts(en, fr);
