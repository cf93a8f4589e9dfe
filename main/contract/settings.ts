// Console settings: the remote audit target (syslog) with its forwarder's state and a live test, and the DNS
// servers the preflight asks. Declared schema first: the schemas judge a request's JSON shape (and the port's
// range); what needs the manager's Node side — a host name or IP, a CA's PEM, a resolver's address — the core
// judges, and it takes and returns these types.
import { z } from './zod';
import type { RoutesOf } from './route';

export const syslogTransports = ['tls', 'tcp', 'udp'] as const;
export type SyslogTransport = (typeof syslogTransports)[number];

export const syslogTargetSchema = z.object({
  host: z.string({ error: 'host must be a host name or an IP address, e.g. siem.bank.internal' }),
  port: z
    .number({ error: 'port must be an integer from 1 to 65535 (syslog is 514, or 6514 with TLS)' })
    .int('port must be an integer from 1 to 65535 (syslog is 514, or 6514 with TLS)')
    .min(1, 'port must be an integer from 1 to 65535 (syslog is 514, or 6514 with TLS)')
    .max(65535, 'port must be an integer from 1 to 65535 (syslog is 514, or 6514 with TLS)'),
  transport: z.enum(syslogTransports, { error: 'transport must be "tls" (RFC 5425), "tcp" or "udp"' }),
  /** For tls: the CA that signs the receiver's certificate (the system store when absent; null or "" is none). */
  ca_pem: z.string({ error: 'ca_pem is the PEM text of the CA certificate that signs the syslog receiver' }).nullish(),
});
/** A target as sent; the core stores it with `ca_pem` only when one is given. */
export type SyslogTargetInput = z.input<typeof syslogTargetSchema>;

export interface SyslogTarget {
  host: string;
  port: number;
  transport: SyslogTransport;
  ca_pem?: string;
}

export const syslogForwarderStatusSchema = z.object({
  target: z.string().nullable(),
  running: z.boolean(),
  forwarded_seq: z.number(),
  pending: z.number(),
  last_success_at: z.string().nullable(),
  last_error: z.object({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
  consecutive_failures: z.number(),
  /** How long until the next attempt after a failure; null when not backing off. */
  retry_in_ms: z.number().nullable(),
});
export type SyslogForwarderStatus = z.infer<typeof syslogForwarderStatusSchema>;

const storedTargetSchema: z.ZodType<SyslogTarget> = z.object({
  host: z.string(),
  port: z.number(),
  transport: z.enum(syslogTransports),
  ca_pem: z.string().optional(),
});

/** The configured target (null: none) and what this process's forwarder reports (null where none runs). */
export const syslogSettingsSchema = z.object({
  target: storedTargetSchema.nullable(),
  forwarder: syslogForwarderStatusSchema.nullable(),
});
export type SyslogSettings = z.infer<typeof syslogSettingsSchema>;

export const syslogProbeResultSchema = z.object({
  reachable: z.boolean(),
  transport: z.enum(syslogTransports),
  target: z.string(),
  method: z.string(),
  error_code: z.string().nullable(),
  message: z.string(),
  duration_ms: z.number(),
});
export type SyslogProbeResult = z.infer<typeof syslogProbeResultSchema>;

/** At most this many DNS servers; each is `ip`, `ip:port` or `[ipv6]:port` (the core checks the address). */
export const MAX_DNS_SERVERS = 8;

export const dnsSettingsSchema = z.object({
  servers: z
    .array(z.string({ error: 'each server is an IP address, ip:port or [ipv6]:port' }), {
      error: 'servers must be a list of addresses, e.g. ["10.0.0.53", "10.0.1.53:5353"]',
    })
    .max(MAX_DNS_SERVERS, `at most ${MAX_DNS_SERVERS} DNS servers`),
});
export type DnsSettings = z.infer<typeof dnsSettingsSchema>;

/** An empty object asks to test the saved target, as no body does. */
const probeBodySchema = z.preprocess(
  (body) => (typeof body === 'object' && body !== null && Object.keys(body).length === 0 ? undefined : body),
  syslogTargetSchema.optional(),
);

export const settingsRouteSchemas = {
  'GET /api/v1/settings/syslog': { result: syslogSettingsSchema },
  'PUT /api/v1/settings/syslog': { body: syslogTargetSchema, result: z.object({ target: storedTargetSchema }) },
  'DELETE /api/v1/settings/syslog': { result: z.null() },
  /** A body tests a target before it is saved; without one, the saved target is tested. */
  'POST /api/v1/settings/syslog/test': { body: probeBodySchema, result: syslogProbeResultSchema },
  'GET /api/v1/settings/dns': { result: dnsSettingsSchema },
  'PUT /api/v1/settings/dns': { body: dnsSettingsSchema, result: dnsSettingsSchema },
} as const;

export type SettingsRoutes = RoutesOf<typeof settingsRouteSchemas>;
