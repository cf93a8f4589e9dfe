// At start, one PREFLIGHT line per thing the operator cannot fix itself: no manager key, no ingress class, no
// cert-manager. It still starts: what it can do, it does; the lines tell the cluster's owner what is missing.
import { ApiextensionsV1Api, NetworkingV1Api, type KubeConfig } from '@kubernetes/client-node';
import { readSignedState } from './signed-state';

const say = (check: string, message: string): void => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'warn', event: 'PREFLIGHT', check, message })}\n`);
};

export async function preflight(kc: KubeConfig, namespace: string, identityDir: string): Promise<void> {
  const state = await readSignedState(kc, namespace, identityDir).catch((e: unknown) => ({
    ok: false as const,
    reason: 'ManagerKeyMissing',
    message: (e as Error).message,
  }));
  if (!state.ok && state.reason === 'ManagerKeyMissing') say('manager_key', state.message);
  const classes = await kc
    .makeApiClient(NetworkingV1Api)
    .listIngressClass()
    .then((l) => l.items.length)
    .catch(() => 0);
  if (classes === 0) say('ingress_class', 'no IngressClass: no domain can be routed');
  const certManager = await kc
    .makeApiClient(ApiextensionsV1Api)
    .readCustomResourceDefinition({ name: 'certificates.cert-manager.io' })
    .then(() => true)
    .catch(() => false);
  if (!certManager) say('cert_manager', 'cert-manager is not installed: the cert-manager TLS mode cannot issue certificates');
}
