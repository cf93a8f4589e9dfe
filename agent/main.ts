// navin-agent: the Navin Cluster Agent's entrypoint. Reads its identity, refuses to start on a config that
// does not verify, then runs until SIGTERM. Exit codes: 0 stopped, 1 failure, 2 usage error.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterAgent } from './agent';
import { folderCertificateStore } from './certificate-files';
import { AgentStartError, loadIdentity } from './identity';
import { secretCertificateStore } from './identity-secret';
import { main } from './entrypoint';
import { AGENT_VERSION } from './version';

const USAGE = `navin-agent ${AGENT_VERSION}: the Navin Cluster Agent

usage: navin-agent --identity-dir DIR [--inbox DIR] [--kubeconfig FILE] [--replica NAME]

  --identity-dir  the mounted Secret navin-cluster-agent-identity (config.json, manager.pem, tls.crt, tls.key, ca.crt);
                  in a pod a renewed certificate is written to that Secret, with --kubeconfig to this folder
  --inbox         fallback folder: each signed <name>.json is answered in <name>.receipt.json
  --kubeconfig    outside a pod only; in a pod the ServiceAccount token is used
  --replica       this replica's name (default $POD_NAME, else the host name)
  --version       print the version`;

main({
  name: 'navin-agent',
  usage: USAGE,
  options: {
    'identity-dir': { type: 'string' },
    inbox: { type: 'string' },
    kubeconfig: { type: 'string' },
    replica: { type: 'string' },
  },
  check: (flags) => (typeof flags['identity-dir'] === 'string' ? null : '--identity-dir is required'),
  isRefusal: (error): error is AgentStartError => error instanceof AgentStartError,
  start: async (flags) => {
    const identityDir = flags['identity-dir'] as string;
    const identity = loadIdentity(identityDir, (c) =>
      (c as { agent?: unknown }).agent === 'node' ? 'this signed config is for a node agent (navin-node-agent), not a cluster agent' : null,
    );
    const kc = new KubeConfig();
    const inPod = typeof flags.kubeconfig !== 'string';
    if (inPod) kc.loadFromCluster();
    else kc.loadFromFile(flags.kubeconfig as string);
    const replica = (flags.replica as string | undefined) ?? process.env.POD_NAME ?? hostname();
    // In a pod the identity folder is the Secret mounted read-only: a renewed pair is written to the Secret itself,
    // where the next pod and the other replica read it. Outside a pod the folder is the agent's own.
    const store = inPod ? secretCertificateStore(kc, identity.config.namespace) : folderCertificateStore(identityDir);
    const agent = new ClusterAgent({
      identity,
      kc,
      replica,
      version: AGENT_VERSION,
      inbox: flags.inbox as string | undefined,
      identityDir,
      renewal: { store },
    });
    await agent.start();
    return agent;
  },
});
