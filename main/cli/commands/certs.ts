// `navin-manager certs list`: every certificate the product issued (agents, node agents, services, console,
// gateway), the soonest to expire first, those in use with under 14 days left marked EXPIRING; --json for scripts.
import { CERTIFICATE_EXPIRING_DAYS, type FleetCertificate } from '../../contract/certificates';
import { certificateFleet, fleetLedgers } from '../../core/certificates/fleet';
import { openManager } from '../../core/manager';
import { dataDirOption } from '../data-dir';
import { say } from '../output';
import { UsageError, type Command } from '../usage';

const MAX_DAYS = 36500;

/** Where a certificate serves: its cluster, host and service as far as known. */
const where = (c: FleetCertificate): string =>
  [c.cluster_id && `cluster ${c.cluster_id}`, c.host_id && `host ${c.host_id}`, c.service && `service ${c.service}`]
    .filter(Boolean)
    .join(' ') || '-';

/** One line per certificate, aligned, the mark first so that the urgent ones stand out and grep finds them. */
export function certificateLines(items: readonly FleetCertificate[]): string[] {
  const rows = items.map((c) => [
    c.expiring ? 'EXPIRING' : '',
    c.not_after,
    `${c.days_left}d`,
    c.kind,
    c.state,
    c.issuer.ca === 'manager' ? 'manager-ca' : `service-ca:${c.issuer.serial ?? '?'}`,
    c.serial,
    c.subject,
    where(c),
  ]);
  const header = ['', 'NOT AFTER', 'LEFT', 'KIND', 'STATE', 'ISSUER', 'SERIAL', 'SUBJECT', 'WHERE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function expiringWithin(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,5}$/.test(value) || Number(value) > MAX_DAYS)
    throw new UsageError(`--expiring-within is a whole number of days from 0 to ${MAX_DAYS}, not ${String(value)}`);
  return Number(value);
}

export const certsCommand: Command = {
  name: 'certs',
  usage: `navin-manager certs list [--expiring-within DAYS] [--json] [--data-dir D]

Lists every certificate the manager issued: agents' and node agents' client certificates, the console's and the
gateway's (all of the manager CA), and the services' (of each cluster's service CA), the soonest to expire first.
A certificate in use with under ${CERTIFICATE_EXPIRING_DAYS} days left is marked EXPIRING. No key is ever shown.

  --expiring-within DAYS  only those whose expiry is at most DAYS away (expired ones included)
  --json                  {"items": [...]}, each as GET /api/v1/certificates gives it`,
  options: { 'expiring-within': { type: 'string' }, json: { type: 'boolean' }, 'data-dir': { type: 'string' } },
  positionals: true,
  run(args) {
    const [action, ...rest] = args.positionals;
    if (action !== 'list' || rest.length > 0) throw new UsageError('expected: navin-manager certs list');
    const within = expiringWithin(args.values['expiring-within']);
    const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
    try {
      const items = certificateFleet(fleetLedgers(manager), manager.clock.now(), { expiringWithinDays: within });
      if (args.values.json) process.stdout.write(`${JSON.stringify({ items }, null, 2)}\n`);
      else if (items.length === 0) say(within === undefined ? 'no certificate issued yet' : `no certificate expires within ${within} days`);
      else for (const line of certificateLines(items)) process.stdout.write(`${line}\n`);
      return 0;
    } finally {
      manager.close();
    }
  },
};
