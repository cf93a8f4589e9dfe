// The words of the preflight checks (titles and reasons) in English and French, one table beside the other;
// the checks pass the values. Evidence (`method`, observed values) stays in English, as the reports keep it.
import { bilingualTexts } from '../../contract/bilingual';

interface PreflightTexts {
  // kube-checks.ts
  apiTitle: string;
  nodesTitle: string;
  capacityTitle: string;
  apiUnreadable: (message: string) => string;
  nothingToCheck: string;
  kubernetesTooOld: (version: string, minimum: string) => string;
  noUsableNode: string;
  nodesNotUsable: (list: string) => string;
  quantityUnreadable: (message: string) => string;
  notEnoughCapacity: (list: string) => string;
  // dns-checks.ts
  dnsForwardTitle: string;
  dnsReverseTitle: string;
  dnsNotRegistered: string;
  fqdnDoesNotResolve: (fqdn: string, message: string) => string;
  fqdnResolvesElsewhere: (fqdn: string, answers: string, address: string) => string;
  addressHasNoPtr: (address: string, message: string) => string;
  addressResolvesElsewhere: (address: string, answers: string, fqdn: string) => string;
  // tls-checks.ts
  caTitle: string;
  gatewayTitle: string;
  endpointTitle: (component: string, name: string) => string;
  caNotYetValid: string;
  caExpired: string;
  caExpiresIn: (days: number) => string;
  noGateway: string;
  gatewayUntrusted: string;
  gatewayExpired: string;
  gatewayExpiresIn: (days: number) => string;
  certificateExpiresIn: (days: number | undefined) => string;
  endpointRefused: (verdict: string, message: string) => string;
  // version-checks.ts
  agentVersionTitle: string;
  artifactsTitle: (component: string) => string;
  noAgentYet: string;
  agentVersionMismatch: (agent: string, manager: string) => string;
  noImage: string;
  noMirror: string;
  artifactProblems: (problems: string[]) => string;
  notInMirror: (list: string) => string;
  namedElsewhere: (mirrorHost: string, list: string) => string;
}

const en: PreflightTexts = {
  apiTitle: 'Kubernetes API reachable and version supported',
  nodesTitle: 'Nodes Ready, operating system and architecture',
  capacityTitle: 'Capacity for the memory and CPU minimums of each managed component',
  apiUnreadable: (m) => `the Kubernetes API could not be read: ${m}`,
  nothingToCheck: 'the cluster has neither a registered kubeconfig nor an inventory reported by its agent: nothing can be checked',
  kubernetesTooOld: (v, min) => `Kubernetes ${v} is older than ${min}`,
  noUsableNode: 'no node is Ready with a supported operating system and architecture',
  nodesNotUsable: (list) => `not usable: ${list}`,
  quantityUnreadable: (m) => `a resource quantity could not be read: ${m}`,
  notEnoughCapacity: (list) => `not enough allocatable capacity: ${list}`,

  dnsForwardTitle: 'Forward DNS: the FQDN resolves to the registered address',
  dnsReverseTitle: 'Reverse DNS: the address resolves to the FQDN',
  dnsNotRegistered: 'the cluster has no registered FQDN and address (Profile tab)',
  fqdnDoesNotResolve: (fqdn, m) => `${fqdn} does not resolve: ${m}`,
  fqdnResolvesElsewhere: (fqdn, answers, address) => `${fqdn} resolves to ${answers}, not ${address}`,
  addressHasNoPtr: (address, m) => `${address} has no PTR record: ${m}`,
  addressResolvesElsewhere: (address, answers, fqdn) => `${address} resolves to ${answers}, not ${fqdn}`,

  caTitle: 'The console CA is valid',
  gatewayTitle: 'TLS handshake with the agent gateway',
  endpointTitle: (c, n) => `TLS handshake with ${c}/${n}`,
  caNotYetValid: 'the manager CA is not valid yet',
  caExpired: 'the manager CA has expired',
  caExpiresIn: (d) => `the manager CA expires in ${d} days`,
  noGateway: 'no agent gateway runs in this manager: agents cannot fetch commands until one does',
  gatewayUntrusted: 'the gateway certificate is not trusted',
  gatewayExpired: 'the gateway certificate has expired',
  gatewayExpiresIn: (d) => `the gateway certificate expires in ${d} days`,
  certificateExpiresIn: (d) => `the certificate expires in ${d} days`,
  endpointRefused: (verdict, m) => `${verdict}: ${m}`,

  agentVersionTitle: "The agent's version is supported",
  artifactsTitle: (n) => `The artifacts of ${n} are in the mirror`,
  noAgentYet: 'no agent has reported yet: the command will wait for it',
  agentVersionMismatch: (a, m) => `agent ${a} does not match manager ${m} (same major.minor needed)`,
  noImage: 'the component declares no image: nothing to look up',
  noMirror: 'no internal mirror is configured',
  artifactProblems: (p) => p.join('; '),
  notInMirror: (list) => `not in the mirror: ${list}`,
  namedElsewhere: (host, list) => `in the mirror, but named with another registry than ${host}: ${list}`,
};

const fr: PreflightTexts = {
  apiTitle: 'API Kubernetes joignable et version prise en charge',
  nodesTitle: 'Nœuds prêts, système et architecture',
  capacityTitle: 'Capacité pour les minimums de mémoire et de processeur de chaque composant géré',
  apiUnreadable: (m) => `l'API Kubernetes n'a pas pu être lue : ${m}`,
  nothingToCheck: "le cluster n'a ni kubeconfig enregistré ni inventaire remonté par son agent : rien ne peut être vérifié",
  kubernetesTooOld: (v, min) => `Kubernetes ${v} est antérieur à ${min}`,
  noUsableNode: "aucun nœud n'est prêt avec un système et une architecture pris en charge",
  nodesNotUsable: (list) => `inutilisables : ${list}`,
  quantityUnreadable: (m) => `une quantité de ressource illisible : ${m}`,
  notEnoughCapacity: (list) => `capacité allouable insuffisante : ${list}`,

  dnsForwardTitle: "DNS direct : le FQDN se résout vers l'adresse enregistrée",
  dnsReverseTitle: "DNS inverse : l'adresse se résout vers le FQDN",
  dnsNotRegistered: "le cluster n'a pas de FQDN et d'adresse enregistrés (onglet Profil)",
  fqdnDoesNotResolve: (fqdn, m) => `${fqdn} ne se résout pas : ${m}`,
  fqdnResolvesElsewhere: (fqdn, answers, address) => `${fqdn} se résout vers ${answers}, pas ${address}`,
  addressHasNoPtr: (address, m) => `${address} n'a pas d'enregistrement PTR : ${m}`,
  addressResolvesElsewhere: (address, answers, fqdn) => `${address} se résout vers ${answers}, pas ${fqdn}`,

  caTitle: "L'autorité de certification de la console est valide",
  gatewayTitle: 'Poignée de main TLS avec la passerelle des agents',
  endpointTitle: (c, n) => `Poignée de main TLS avec ${c}/${n}`,
  caNotYetValid: "l'autorité de la console n'est pas encore valide",
  caExpired: "l'autorité de la console a expiré",
  caExpiresIn: (d) => `l'autorité de la console expire dans ${d} jours`,
  noGateway: "aucune passerelle d'agents ne tourne : les agents ne recevront les commandes qu'une fois lancée",
  gatewayUntrusted: "le certificat de la passerelle n'est pas approuvé",
  gatewayExpired: 'le certificat de la passerelle a expiré',
  gatewayExpiresIn: (d) => `le certificat de la passerelle expire dans ${d} jours`,
  certificateExpiresIn: (d) => `le certificat expire dans ${d} jours`,
  endpointRefused: (verdict, m) => `${verdict} : ${m}`,

  agentVersionTitle: "La version de l'agent est prise en charge",
  artifactsTitle: (n) => `Les artefacts de ${n} sont dans le miroir`,
  noAgentYet: "aucun agent ne s'est encore annoncé : la commande l'attendra",
  agentVersionMismatch: (a, m) => `l'agent ${a} ne correspond pas au gestionnaire ${m} (même majeure.mineure requise)`,
  noImage: 'le composant ne déclare aucune image : rien à chercher',
  noMirror: "aucun miroir interne n'est configuré",
  artifactProblems: (p) => p.join(' ; '),
  notInMirror: (list) => `absent du miroir : ${list}`,
  namedElsewhere: (host, list) => `dans le miroir, mais nommées avec un autre registre que ${host} : ${list}`,
};

export const TEXT = bilingualTexts(en, fr);
