// navin-agent: the Navin Cluster Agent's entrypoint. Reads its identity, refuses to start on a config that
// does not verify, then runs until SIGTERM. Exit codes: 0 stopped, 1 failure, 2 usage error.
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterAgent } from './agent';
import { AgentStartError, loadIdentity } from './identity';
import { log } from './log';
import { AGENT_VERSION } from './version';

const USAGE = `navin-agent ${AGENT_VERSION}: the Navin Cluster Agent

usage: navin-agent --identity-dir DIR [--inbox DIR] [--kubeconfig FILE] [--replica NAME]

  --identity-dir  the mounted Secret navin-cluster-agent-identity (config.json, manager.pem, tls.crt, tls.key, ca.crt)
  --inbox         fallback folder: each signed <name>.json is answered in <name>.receipt.json
  --kubeconfig    outside a pod only; in a pod the ServiceAccount token is used
  --replica       this replica's name (default $POD_NAME, else the host name)
  --version       print the version`;

async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        'identity-dir': { type: 'string' },
        inbox: { type: 'string' },
        kubeconfig: { type: 'string' },
        replica: { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`navin-agent: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${AGENT_VERSION}\n`);
    return 0;
  }
  if (typeof values['identity-dir'] !== 'string') {
    process.stderr.write(`navin-agent: --identity-dir is required\n${USAGE}\n`);
    return 2;
  }
  try {
    const identity = loadIdentity(values['identity-dir'], (c) =>
      (c as { agent?: unknown }).agent === 'node' ? 'this signed config is for a node agent (navin-node-agent), not a cluster agent' : null,
    );
    const kc = new KubeConfig();
    if (typeof values.kubeconfig === 'string') kc.loadFromFile(values.kubeconfig);
    else kc.loadFromCluster();
    const replica = (values.replica as string | undefined) ?? process.env.POD_NAME ?? hostname();
    const agent = new ClusterAgent({ identity, kc, replica, version: AGENT_VERSION, inbox: values.inbox as string | undefined });
    await agent.start();
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await agent.stop();
    log('stopped');
    return 0;
  } catch (error) {
    if (error instanceof AgentStartError) {
      log('start.refused', { code: error.code, error: error.message }, 'error');
      return 1;
    }
    log('failed', { error: (error as Error).message }, 'error');
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
