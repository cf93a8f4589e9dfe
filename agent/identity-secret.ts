// The cluster agent's certificate and key kept in its identity Secret through the Kubernetes API (its ServiceAccount
// may get and update that one Secret, by name): the pod mounts the Secret read-only, and a restarted pod, or the
// other replica, reads the renewed pair from it. Each update carries the resourceVersion read and is refused when
// the Secret no longer holds the certificate renewed, so a pair written meanwhile is never overwritten.
import { CoreV1Api, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { AGENT_IDENTITY_SECRET_NAME } from '../main/wire/protocol';
import type { CertificatePair, CertificateStore } from './certificate-store';
import { deadline } from './kube-deadline';

const CERT = 'tls.crt';
const KEY = 'tls.key';
/** A read or write of the Secret the API server has not answered by then failed (the next check tries again). */
const API_CALL_MS = 15_000;

const text = (secret: V1Secret, file: string): string => {
  const b64 = secret.data?.[file];
  if (b64 === undefined) throw new Error(`the Secret ${secret.metadata?.name} holds no ${file}`);
  return Buffer.from(b64, 'base64').toString('utf8');
};

export function secretCertificateStore(kc: KubeConfig, namespace: string, name = AGENT_IDENTITY_SECRET_NAME): CertificateStore {
  const api = kc.makeApiClient(CoreV1Api);
  const read = (): Promise<V1Secret> => api.readNamespacedSecret({ name, namespace }, deadline(API_CALL_MS));
  const replace = (body: V1Secret, dryRun?: 'All'): Promise<V1Secret> =>
    api.replaceNamespacedSecret({ name, namespace, body, ...(dryRun ? { dryRun } : {}) }, deadline(API_CALL_MS));
  return {
    // A dry-run update proves the right to update before a CSR leaves; the key itself is written only with its certificate.
    stage: async () => {
      await replace(await read(), 'All');
    },
    commit: async (previousCertPem, next) => {
      const secret = await read();
      if (text(secret, CERT) !== previousCertPem) throw new Error(`the Secret ${namespace}/${name} holds another certificate now`);
      const data = {
        ...secret.data,
        [CERT]: Buffer.from(next.certPem).toString('base64'),
        [KEY]: Buffer.from(next.keyPem).toString('base64'),
      };
      // The resourceVersion read travels with the body: a write in between makes this one fail (409).
      await replace({ ...secret, data });
    },
    current: async (): Promise<CertificatePair> => {
      const secret = await read();
      return { certPem: text(secret, CERT), keyPem: text(secret, KEY) };
    },
  };
}
