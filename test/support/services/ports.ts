// Free loopback ports for servers that cannot be told to bind port 0 and report it (etcd, nats-server, the node
// exporter): the ports are held open together, so one call never returns the same port twice.
import { createServer, type Server } from 'node:net';

export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const s = createServer();
      servers.push(s);
      await new Promise<void>((resolve, reject) => s.once('error', reject).listen(0, '127.0.0.1', resolve));
    }
    return servers.map((s) => (s.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}
