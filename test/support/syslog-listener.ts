// A syslog receiver on loopback for the forwarder tests: TCP with RFC 6587 octet-counted frames, or UDP with one
// message per datagram. It can be restarted on the same port to play a receiver that comes back.
import dgram from 'node:dgram';
import net from 'node:net';
import tls from 'node:tls';
import { issueServerCert, testCas } from './tls-endpoints';

export interface SyslogListener {
  port: number;
  messages: string[];
  /** Resolves once n messages have arrived in all. */
  waitFor(n: number, timeoutMs?: number): Promise<string[]>;
  stop(): Promise<void>;
}

/** Splits `LEN SP MSG` frames off the buffer; returns what is left of a partial frame. */
export function parseOctetFrames(buf: Buffer, out: string[]): Buffer {
  for (;;) {
    const sp = buf.indexOf(0x20);
    if (sp <= 0) return buf;
    const len = Number(buf.subarray(0, sp).toString('ascii'));
    if (!Number.isInteger(len) || len <= 0)
      throw new Error(`not an octet-counted frame: ${JSON.stringify(buf.subarray(0, 20).toString())}`);
    if (buf.length < sp + 1 + len) return buf;
    out.push(buf.subarray(sp + 1, sp + 1 + len).toString('utf8'));
    buf = buf.subarray(sp + 1 + len);
  }
}

/** With 'tls', the receiver's certificate is for 127.0.0.1 from the test CA of tls-endpoints (`caPem`). */
export async function startSyslogListener(transport: 'tls' | 'tcp' | 'udp', port = 0): Promise<SyslogListener & { caPem?: string }> {
  const messages: string[] = [];
  const waiters = new Set<() => void>();
  const arrived = (): void => waiters.forEach((w) => w());
  const waitFor = (n: number, timeoutMs = 5000): Promise<string[]> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (messages.length < n) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(messages.slice());
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`only ${messages.length} of ${n} syslog messages arrived`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  if (transport === 'udp') {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (m) => {
      messages.push(m.toString('utf8'));
      arrived();
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, '127.0.0.1', () => resolve());
    });
    return { port: socket.address().port, messages, waitFor, stop: () => new Promise((resolve) => socket.close(() => resolve())) };
  }

  const sockets = new Set<net.Socket>();
  const onSocket = (s: net.Socket): void => {
    sockets.add(s);
    let buf: Buffer = Buffer.alloc(0);
    s.on('data', (d: Buffer) => {
      buf = parseOctetFrames(Buffer.concat([buf, d]), messages);
      arrived();
    });
    s.on('end', () => s.end());
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  };
  let caPem: string | undefined;
  let server: net.Server;
  if (transport === 'tls') {
    const { trusted } = testCas();
    const leaf = issueServerCert(trusted, ['127.0.0.1'], new Date(Date.now() - 86_400_000), new Date(Date.now() + 30 * 86_400_000));
    caPem = trusted.certPem;
    server = tls.createServer({ cert: leaf.certPem, key: leaf.keyPem, minVersion: 'TLSv1.2' }, onSocket);
    server.on('tlsClientError', () => undefined);
  } else {
    server = net.createServer(onSocket);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    caPem,
    messages,
    waitFor,
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
