// navin-node-agent: the Navin Node Agent's entrypoint, run by systemd (navin-node-agent.service). Reads its
// identity, refuses a config that does not verify or is not a node agent's, then runs until SIGTERM.
// Exit codes: 0 stopped, 1 failure, 2 usage error.
import { parseArgs } from 'node:util';
import { NODE_AGENT_IDENTITY_DIR, NODE_AGENT_STATE_DIR, type NodeAgentConfigBody } from '../../main/wire/node-agent';
import { isCleanAbsolutePath } from '../../main/wire/plan';
import { AgentStartError, loadIdentity } from '../identity';
import { log } from '../log';
import { AGENT_VERSION } from '../version';
import { StateCorrupt } from './file-state';
import { NodeAgent } from './node-agent';

const USAGE = `navin-node-agent ${AGENT_VERSION}: the Navin Node Agent

usage: navin-node-agent [--identity-dir DIR] [--state-dir DIR] [--inbox DIR] [--prefix DIR]

  --identity-dir  config.json, manager.pem, tls.crt, tls.key, ca.crt (default ${NODE_AGENT_IDENTITY_DIR})
  --state-dir     the agent's state file (default ${NODE_AGENT_STATE_DIR})
  --inbox         fallback folder: each signed <name>.json is answered in <name>.receipt.json
  --prefix        where the host's "/" is (tests and images; default /)
  --version       print the version`;

function acceptNodeConfig(c: NodeAgentConfigBody): string | null {
  if (c.agent !== 'node' || typeof c.host_id !== 'string') return 'this signed config is not a node agent config (it has no host)';
  if (c.target !== c.host_id) return 'the signed config targets another host than its own';
  if (!Array.isArray(c.managed_roots) || !c.managed_roots.every(isCleanAbsolutePath)) return 'the signed config has no valid managed roots';
  return null;
}

async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        'identity-dir': { type: 'string' },
        'state-dir': { type: 'string' },
        inbox: { type: 'string' },
        prefix: { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`navin-node-agent: ${(error as Error).message}\n${USAGE}\n`);
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
  try {
    const identity = loadIdentity<NodeAgentConfigBody>(
      (values['identity-dir'] as string | undefined) ?? NODE_AGENT_IDENTITY_DIR,
      acceptNodeConfig,
    );
    const agent = new NodeAgent({
      identity,
      version: AGENT_VERSION,
      stateDir: (values['state-dir'] as string | undefined) ?? NODE_AGENT_STATE_DIR,
      inbox: values.inbox as string | undefined,
      prefix: values.prefix as string | undefined,
    });
    await agent.start();
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await agent.stop();
    log('stopped');
    return 0;
  } catch (error) {
    if (error instanceof AgentStartError || error instanceof StateCorrupt) {
      log('start.refused', { code: error.code, error: error.message }, 'error');
      return 1;
    }
    log('failed', { error: (error as Error).message }, 'error');
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
