// Names fixed by the specification, in one place.

export { DEFAULT_NAMESPACE } from '../../contract/kubernetes';
export const API_GROUP = 'platform.navin.ai';
export const API_VERSION = 'v1alpha1';
export const MANAGED_COMPONENT_KIND = 'ManagedComponent';
export const MANAGED_COMPONENT_PLURAL = 'managedcomponents';
export const IMPORT_SERVICE_ACCOUNT = 'navin-import';
export const AGENT_NAME = 'navin-cluster-agent';
export const AGENT_IDENTITY_SECRET = 'navin-cluster-agent-identity';
export const AGENT_LEASE = 'navin-cluster-agent';
export const AGENT_STATE_CONFIGMAP = 'navin-cluster-agent-state';
export const IDENTITY_FILES = ['config.json', 'manager.pem', 'tls.crt', 'tls.key', 'ca.crt'] as const;
export const OPERATOR_NAME = 'navin-operator';
export const DEFAULT_INGRESS_NAMESPACE = 'ingress-nginx';
