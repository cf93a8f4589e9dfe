// kubeTarget(): the switch between this test server and a real cluster (KUBECONFIG set), behind one interface.
//
// Running the integration suites against a real cluster (the same tests, no test-server-only hooks):
//
//   kind:  kind create cluster --name navin-it --image kindest/node:v1.30.0
//          kind get kubeconfig --name navin-it > ~/.kube/navin-it.kubeconfig
//          KUBECONFIG=~/.kube/navin-it.kubeconfig npx vitest run <integration suite>
//          kind delete cluster --name navin-it
//   k3s:   k3d cluster create navin-it   (or on a k3s host: sudo cat /etc/rancher/k3s/k3s.yaml > kubeconfig)
//          k3d kubeconfig get navin-it > ~/.kube/navin-it.kubeconfig
//          KUBECONFIG=~/.kube/navin-it.kubeconfig npx vitest run <integration suite>
//
// The kubeconfig's current context must be a cluster admin (it applies RBAC and CRDs and requests tokens).
// Suites must use their own namespaces and delete them at the end; anything needing `target.server`
// (faults, the store-level API, restart) must skip when it is undefined.
import { readFileSync } from 'node:fs';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { AppliedObject } from './apply.js';
import { applyManifests } from './apply.js';
import type { KubeconfigOptions } from './kubeconfig.js';
import { kubeconfigYaml } from './kubeconfig.js';
import type { KubeApiServer, KubeApiServerOptions } from './server.js';
import { startKubeApiServer } from './server.js';

export interface KubeTarget {
  kind: 'test-server' | 'cluster';
  /** The test server itself (faults, store, stop/start); undefined on a real cluster. */
  server?: KubeApiServer;
  /** The API server URL. */
  url: string;
  /** kubeconfig YAML of the cluster admin. */
  adminKubeconfig: string;
  /** A client-node KubeConfig for a bearer token (the admin's when omitted). */
  kubeConfig(token?: string): KubeConfig;
  /** kubeconfig YAML for a bearer token. */
  kubeconfigFor(token: string, opts?: KubeconfigOptions): string;
  /** kubectl apply -f of a multi-document YAML, as admin or with the token. */
  apply(yamlText: string, token?: string): Promise<AppliedObject[]>;
  /** A ServiceAccount token from the TokenRequest API (`kubectl create token`). */
  createToken(namespace: string, serviceAccount: string, opts?: { expirationSeconds?: number }): Promise<string>;
  close(): Promise<void>;
}

const serverTarget = async (opts?: KubeApiServerOptions): Promise<KubeTarget> => {
  const server = await startKubeApiServer(opts);
  return {
    kind: 'test-server',
    server,
    url: server.url,
    adminKubeconfig: server.kubeconfigFor(server.adminToken),
    kubeConfig: (token) => server.kubeConfig(token ?? server.adminToken),
    kubeconfigFor: (token, o) => server.kubeconfigFor(token, o),
    apply: (yamlText, token) => server.apply(yamlText, token),
    createToken: async (namespace, sa, o) => server.createToken(namespace, sa, o),
    close: () => server.close(),
  };
};

const clusterTarget = (): KubeTarget => {
  const admin = new KubeConfig();
  admin.loadFromDefault();
  const cluster = admin.getCurrentCluster();
  if (!cluster) throw new Error('KUBECONFIG has no current cluster');
  const caPem = cluster.caData
    ? Buffer.from(cluster.caData, 'base64').toString()
    : cluster.caFile
      ? readFileSync(cluster.caFile, 'utf8')
      : undefined;
  const endpoint = { server: cluster.server, ...(caPem ? { caPem } : {}), insecureSkipTlsVerify: cluster.skipTLSVerify };
  const forToken = (token: string): KubeConfig => {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfigYaml(endpoint, token));
    return kc;
  };
  return {
    kind: 'cluster',
    url: cluster.server,
    adminKubeconfig: admin.exportConfig(),
    kubeConfig: (token) => (token ? forToken(token) : admin),
    kubeconfigFor: (token, o) => kubeconfigYaml(endpoint, token, o),
    apply: (yamlText, token) => applyManifests(token ? forToken(token) : admin, yamlText),
    createToken: async (namespace, name, o = {}) => {
      const tr = await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
        name,
        namespace,
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { audiences: [], expirationSeconds: o.expirationSeconds ?? 3600 },
        },
      });
      const token = tr.status?.token;
      if (!token) throw new Error(`no token issued for ${namespace}/${name}`);
      return token;
    },
    close: async () => undefined,
  };
};

/** A real cluster when KUBECONFIG is set, otherwise a fresh test server (options apply to it only). */
export const kubeTarget = async (opts?: KubeApiServerOptions): Promise<KubeTarget> =>
  process.env.KUBECONFIG ? clusterTarget() : serverTarget(opts);
