// navin-node-agent: the Navin Node Agent's entrypoint, run by systemd (navin-node-agent.service). Reads its
// identity, refuses a config that does not verify or is not a node agent's, then runs until SIGTERM.
// Exit codes: 0 stopped, 1 failure, 2 usage error.
import { NODE_AGENT_IDENTITY_DIR, NODE_AGENT_STATE_DIR, type NodeAgentConfigBody } from '../../main/wire/node-agent';
import { isCleanAbsolutePath } from '../../main/wire/plan';
import { folderCertificateStore } from '../certificate-files';
import { AgentStartError, loadIdentity } from '../identity';
import { main } from '../entrypoint';
import { AGENT_VERSION } from '../version';
import { StateCorrupt } from '../state';
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

main({
  name: 'navin-node-agent',
  usage: USAGE,
  options: {
    'identity-dir': { type: 'string' },
    'state-dir': { type: 'string' },
    inbox: { type: 'string' },
    prefix: { type: 'string' },
  },
  isRefusal: (error): error is AgentStartError | StateCorrupt => error instanceof AgentStartError || error instanceof StateCorrupt,
  start: async (flags) => {
    const identityDir = (flags['identity-dir'] as string | undefined) ?? NODE_AGENT_IDENTITY_DIR;
    const identity = loadIdentity<NodeAgentConfigBody>(identityDir, acceptNodeConfig);
    const agent = new NodeAgent({
      identity,
      version: AGENT_VERSION,
      stateDir: (flags['state-dir'] as string | undefined) ?? NODE_AGENT_STATE_DIR,
      inbox: flags.inbox as string | undefined,
      identityDir,
      prefix: flags.prefix as string | undefined,
      renewal: { store: folderCertificateStore(identityDir) },
    });
    await agent.start();
    return agent;
  },
});
