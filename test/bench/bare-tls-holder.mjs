// The baseline of the gateway benchmark's held-poll memory: a bare mTLS server in its own process that holds
// every request open and does nothing else (the same TLS stack, the same client certificates, no application).
// Args: CA, cert and key files. Prints "port N", then on each line read from stdin "held N rss_delta BYTES".
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createInterface } from 'node:readline';

const [caFile, certFile, keyFile] = process.argv.slice(2);
const held = new Set();
const server = createServer(
  { ca: readFileSync(caFile), cert: readFileSync(certFile), key: readFileSync(keyFile), requestCert: true, rejectUnauthorized: true },
  (req, res) => {
    held.add(res);
    res.on('close', () => held.delete(res));
  },
);
server.keepAliveTimeout = 0;
server.requestTimeout = 0;
server.headersTimeout = 0;
global.gc?.();
const before = process.memoryUsage().rss;
server.listen(0, '127.0.0.1', () => process.stdout.write(`port ${server.address().port}\n`));
createInterface({ input: process.stdin }).on('line', () =>
  process.stdout.write(`held ${held.size} rss_delta ${process.memoryUsage().rss - before}\n`),
);
