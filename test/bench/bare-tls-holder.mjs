// The baselines of the gateway benchmark's held-poll memory, each a bare server in its own process with the same
// TLS stack and client certificates and no application: `https` holds every request open; `tls` holds the bare
// TLS sockets (it reads the requests and never answers), the floor under any HTTP server on Node's TLS.
// Args: mode, then CA, cert and key files. Prints "port N", then on each line read from stdin
// "held N rss_delta BYTES".
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createServer as createTlsServer } from 'node:tls';
import { createInterface } from 'node:readline';

const [mode, caFile, certFile, keyFile] = process.argv.slice(2);
const options = {
  ca: readFileSync(caFile),
  cert: readFileSync(certFile),
  key: readFileSync(keyFile),
  requestCert: true,
  rejectUnauthorized: true,
};
const held = new Set();
const hold = (item) => {
  held.add(item);
  item.on('close', () => held.delete(item));
};
let server;
if (mode === 'tls') {
  server = createTlsServer(options, (socket) => {
    hold(socket);
    socket.on('data', () => {});
  });
} else {
  server = createServer(options, (req, res) => hold(res));
  server.keepAliveTimeout = 0;
  server.requestTimeout = 0;
  server.headersTimeout = 0;
}
global.gc?.();
const before = process.memoryUsage().rss;
server.listen(0, '127.0.0.1', () => process.stdout.write(`port ${server.address().port}\n`));
createInterface({ input: process.stdin }).on('line', () =>
  process.stdout.write(`held ${held.size} rss_delta ${process.memoryUsage().rss - before}\n`),
);
