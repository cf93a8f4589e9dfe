// `navin-manager gateway`: the agent gateway alone, on the manager's store (the spec starts it as
// `python -m navin_manager.kubernetes.agent_gateway --host --port --tls-dir --server-name`; this is ours).
import { resolve } from 'node:path';
import { openManager } from '../../core/manager';
import { startManagerGateway } from '../../core/gateway/embedded-gateway';
import { dataDirOption } from '../data-dir';
import { say } from '../output';
import { untilSignalled } from '../until-signalled';
import { portOption, requireString, textOptions, type Command } from '../usage';
import { DEFAULT_GATEWAY_PORT } from './serve';

export const gatewayCommand: Command = {
  name: 'gateway',
  usage: `navin-manager gateway --host <addr> --port <port> --tls-dir <dir> --server-name <name> [--data-dir D]

  --host         address agents connect to (e.g. 0.0.0.0 or the workstation's private address)
  --port         TCP port (the spec's example: ${DEFAULT_GATEWAY_PORT})
  --tls-dir      where the gateway's server certificate (gateway.crt, sealed key) and ca.crt live;
                 issued by the manager CA for --server-name when absent or different
  --server-name  the name agents check in the certificate (their config's server_name)
  --data-dir     the manager's data dir whose store and CA the gateway uses

Agents must present a client certificate of the manager CA that is not revoked. Ctrl-C stops it.`,
  options: textOptions('host', 'port', 'tls-dir', 'server-name', 'data-dir'),
  async run(args) {
    const host = requireString(args, 'host');
    const port = portOption(requireString(args, 'port'), DEFAULT_GATEWAY_PORT);
    const tlsDir = resolve(requireString(args, 'tls-dir'));
    const serverName = requireString(args, 'server-name');
    const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
    try {
      const gateway = await startManagerGateway(manager, { host, port, serverName, tlsDir });
      say(`agent gateway at ${gateway.url} (server name ${serverName})`);
      say('press Ctrl-C to stop');
      await untilSignalled(() => gateway.close());
      say('stopped');
      return 0;
    } finally {
      manager.close();
    }
  },
};
