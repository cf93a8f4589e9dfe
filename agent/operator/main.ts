// navin-operator: the second entrypoint of the cluster agent's image. Turns the ManagedComponents whose spec the
// manager signed into workloads; never connects to the manager. Exit codes: 0 stopped, 1 failure, 2 usage error.
import { KubeConfig } from '@kubernetes/client-node';
import { main } from '../entrypoint';
import { AGENT_VERSION } from '../version';
import { Operator } from './operator';
import { preflight } from './preflight';
import { OPERATOR_IDENTITY_MOUNT } from './signed-state';
import { DEFAULT_INGRESS_NAMESPACE } from './workloads';

const USAGE = `navin-operator ${AGENT_VERSION}: turns signed ManagedComponents into workloads

usage: navin-operator [--namespace NS] [--ingress-namespace NS] [--identity-dir DIR] [--kubeconfig FILE]

  --namespace          the managed namespace (default navin-platform)
  --ingress-namespace  the ingress controller's namespace, the only other one let in (default ${DEFAULT_INGRESS_NAMESPACE})
  --identity-dir       manager.pem and config.json of the agent's identity Secret (default ${OPERATOR_IDENTITY_MOUNT})
  --kubeconfig         outside a pod only; in a pod the ServiceAccount token is used
  --version            print the version`;

main({
  name: 'navin-operator',
  usage: USAGE,
  options: {
    namespace: { type: 'string' },
    'ingress-namespace': { type: 'string' },
    'identity-dir': { type: 'string' },
    kubeconfig: { type: 'string' },
  },
  isRefusal: (_error): _error is Error & { code: string } => false,
  start: async (flags) => {
    const kc = new KubeConfig();
    if (typeof flags.kubeconfig === 'string') kc.loadFromFile(flags.kubeconfig);
    else kc.loadFromCluster();
    const namespace = (flags.namespace as string | undefined) ?? 'navin-platform';
    const identityDir = (flags['identity-dir'] as string | undefined) ?? OPERATOR_IDENTITY_MOUNT;
    await preflight(kc, namespace, identityDir);
    const operator = new Operator({
      kc,
      namespace,
      identityDir,
      ingressNamespace: (flags['ingress-namespace'] as string | undefined) ?? DEFAULT_INGRESS_NAMESPACE,
    });
    operator.start();
    return operator;
  },
});
