// Delivering syslog messages: TLS (RFC 5425) or TCP with octet counting (RFC 6587), or UDP one datagram per
// message (RFC 5426), and the reachability test of a target.
import dgram from 'node:dgram';
import net, { isIP } from 'node:net';
import tls from 'node:tls';
import { hostname } from 'node:os';
import type { SyslogProbeResult, SyslogTarget } from '../../contract/settings';
import { formatSyslog, SEVERITY_NOTICE } from './syslog-message';

export class SyslogSendError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SyslogSendError';
  }
}

/** How long a connected UDP socket waits for the ICMP port-unreachable that a closed port sends back. */
export const UDP_REFUSAL_WAIT_MS = 300;

export const targetLabel = (t: SyslogTarget): string => `${t.transport}://${isIP(t.host) === 6 ? `[${t.host}]` : t.host}:${t.port}`;

/** RFC 6587 section 3.4.1: `MSG-LEN SP SYSLOG-MSG`, the length in octets. */
export function octetFrame(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}

const toSendError = (e: unknown, target: SyslogTarget): SyslogSendError => {
  const code = (e as NodeJS.ErrnoException)?.code ?? 'EUNKNOWN';
  return e instanceof SyslogSendError ? e : new SyslogSendError(code, `${targetLabel(target)}: ${(e as Error)?.message ?? String(e)}`);
};

/**
 * Sends the messages in order on one connection and resolves once they are handed to the network without an
 * error. TCP ends the connection and waits for the receiver to close it, so a reset is seen as a failure.
 */
export function sendSyslog(target: SyslogTarget, messages: string[], timeoutMs = 5000): Promise<void> {
  return target.transport === 'udp' ? sendUdp(target, messages, timeoutMs) : sendStream(target, messages, timeoutMs);
}

/** TLS and TCP share the octet-counted framing; TLS verifies the receiver's certificate for its host name. */
function sendStream(target: SyslogTarget, messages: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let finished = false;
    let settled = false;
    const socket =
      target.transport === 'tls'
        ? tls.connect({
            host: target.host,
            port: target.port,
            servername: isIP(target.host) ? undefined : target.host,
            ca: target.ca_pem ? [target.ca_pem] : undefined,
            minVersion: 'TLSv1.2',
          })
        : net.connect({ host: target.host, port: target.port });
    const done = (error?: SyslogSendError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => {
      // Everything reached the kernel but the receiver keeps the connection open: that is delivery.
      if (finished) done();
      else done(new SyslogSendError('ETIMEDOUT', `${targetLabel(target)}: no delivery within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('error', (e) => done(toSendError(e, target)));
    socket.once('close', () =>
      done(
        finished
          ? undefined
          : new SyslogSendError('ECONNRESET', `${targetLabel(target)} closed the connection before every message was sent`),
      ),
    );
    socket.once(target.transport === 'tls' ? 'secureConnect' : 'connect', () => {
      socket.end(Buffer.concat(messages.map(octetFrame)), () => (finished = true));
    });
  });
}

function sendUdp(target: SyslogTarget, messages: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(isIP(target.host) === 6 ? 'udp6' : 'udp4');
    let settled = false;
    let waitTimer: NodeJS.Timeout | undefined;
    const done = (error?: SyslogSendError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(waitTimer);
      socket.close();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () => done(new SyslogSendError('ETIMEDOUT', `${targetLabel(target)}: no send within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('error', (e) => done(toSendError(e, target)));
    // Connected, so that the kernel reports an ICMP port-unreachable back to this socket as ECONNREFUSED.
    // A name that does not resolve comes back in this callback, not as an 'error' event: unread, the send below
    // on an unconnected socket threw outside any handler and ended the process.
    const connected = (error?: Error): void => {
      if (error) return done(toSendError(error, target));
      const next = (i: number): void => {
        if (settled) return;
        if (i === messages.length) {
          waitTimer = setTimeout(() => done(), UDP_REFUSAL_WAIT_MS);
          return;
        }
        socket.send(messages[i]!, (e) => (e ? done(toSendError(e, target)) : next(i + 1)));
      };
      next(0);
    };
    socket.connect(target.port, target.host, connected as () => void);
  });
}

/** A test message (MSGID navin.probe) the receiver's operators can look for. */
export function probeMessage(at: Date): string {
  return formatSyslog({
    severity: SEVERITY_NOTICE,
    timestamp: at.toISOString(),
    hostname: hostname(),
    msgid: 'navin.probe',
    params: [['probe', 'true']],
    msg: 'Navin Console syslog test message',
  });
}

export async function probeSyslog(target: SyslogTarget, timeoutMs = 5000, at: Date = new Date()): Promise<SyslogProbeResult> {
  const started = performance.now();
  const method =
    target.transport === 'udp'
      ? `udp send one test message and wait ${UDP_REFUSAL_WAIT_MS} ms for a port-unreachable`
      : `${target.transport} connect${target.transport === 'tls' ? ' (TLS 1.2+, the receiver certificate verified for its host)' : ''} and send one test message`;
  const base = { transport: target.transport, target: targetLabel(target), method };
  try {
    await sendSyslog(target, [probeMessage(at)], timeoutMs);
    const message =
      target.transport !== 'udp'
        ? `${base.target} accepted the test message`
        : `${base.target} sent no refusal back; UDP cannot prove that a receiver got the message, look for MSGID navin.probe there`;
    return { ...base, reachable: true, error_code: null, message, duration_ms: Math.round(performance.now() - started) };
  } catch (e) {
    const err = toSendError(e, target);
    return { ...base, reachable: false, error_code: err.code, message: err.message, duration_ms: Math.round(performance.now() - started) };
  }
}
