// kubeconfig YAML for one server and one bearer token, readable by kubectl and @kubernetes/client-node.
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  /** Default namespace of the context. */
  namespace?: string;
  /** Context, cluster and user entry names (default `navin-test`). */
  name?: string;
  /** Server URL override (e.g. https://localhost:port to check the SAN). */
  server?: string;
}

export interface ClusterEndpoint {
  server: string;
  /** PEM of the CA to trust; omitted with insecureSkipTlsVerify. */
  caPem?: string;
  insecureSkipTlsVerify?: boolean;
}

export const kubeconfigYaml = (cluster: ClusterEndpoint, token: string, opts: KubeconfigOptions = {}): string => {
  const name = opts.name ?? 'navin-test';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name,
        cluster: {
          server: opts.server ?? cluster.server,
          ...(cluster.caPem ? { 'certificate-authority-data': Buffer.from(cluster.caPem).toString('base64') } : {}),
          ...(cluster.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
        },
      },
    ],
    users: [{ name, user: { token } }],
    contexts: [{ name, context: { cluster: name, user: name, ...(opts.namespace ? { namespace: opts.namespace } : {}) } }],
    'current-context': name,
    preferences: {},
  });
};
