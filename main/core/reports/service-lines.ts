// The acceptance report's lines of a hosts cluster's services, from the checks the agents ran for this report
// (never from an earlier run): liveness of each instance, readiness and the functional test of each service, and
// the install's offline source (each artifact fetched from the mirror, by the digest the catalog pins).
import type { Catalog } from '../catalog/catalog';
import type { ReportLine } from '../../contract/check-types';
import type { ServiceView } from '../services/services';
import type { CheckOutcome } from '../../wire/service-checks';
import { SERVICE_LINE_TEXT as TEXT } from './service-line-texts';
import { certificateMember } from './tls-lines';

export interface FetchedArtifact {
  host: string;
  path: string;
  digest: string;
  url: string;
}

const fromOutcome = (
  id: string,
  title: ReportLine['title'],
  result: { at: string; outcome: CheckOutcome } | null | undefined,
  since: string,
  at: string,
): ReportLine => {
  if (!result || result.at < since)
    return {
      id,
      title,
      status: 'BLOCKED',
      evidence: {
        method: 'run by the node agent for this report',
        at,
        reason: result ? TEXT.notRunNow : TEXT.neverRun,
        last_run: result?.at ?? null,
      },
      ran_at: at,
    };
  const o = result.outcome;
  // A pass with a warning (a certificate under 14 days) conforms but is WARN: the auditor must see it.
  const warning = o.status === 'pass' ? o.warning : undefined;
  return {
    id,
    title,
    status: o.status === 'fail' ? 'FAIL' : warning ? 'WARN' : 'PASS',
    evidence: {
      method: o.method,
      at: o.started_at,
      kind: o.kind,
      duration_ms: o.duration_ms,
      ...certificateMember(o.evidence, new Date(o.started_at)),
      observed: o.evidence,
      ...(o.steps ? { steps: o.steps } : {}),
      ...(o.error ? { error: o.error, reason: TEXT.failed(o.error.code, o.error.message) } : {}),
      ...(warning ? { warning, reason: TEXT.warned(warning.code, warning.message) } : {}),
    },
    ran_at: o.started_at,
  };
};

function sourceLine(
  view: ServiceView,
  fetched: FetchedArtifact[],
  catalog: Catalog | null,
  mirrorUrl: string | null,
  at: string,
): ReportLine {
  const id = `service.${view.service}.source`;
  const title = TEXT.sourceTitle(view.service, view.version);
  const pins = new Map(
    (catalog?.artifacts(view.service, view.version) ?? []).flatMap((a) =>
      a.platforms.filter((p) => p.available).map((p) => [`${a.name}`, p]),
    ),
  );
  const method =
    'compare each artifact the install fetched (digest re-hashed by the node agent, URL) with the catalog pin and the mirror URL';
  if (fetched.length === 0) return { id, title, status: 'BLOCKED', evidence: { method, at, reason: TEXT.noInstallRecord }, ran_at: at };
  const problems = fetched.filter((f) => {
    const name = f.path.split('/').pop()!;
    const pin = pins.get(name) as { digest: string } | undefined;
    return !pin || pin.digest !== f.digest || !mirrorUrl || !f.url.startsWith(new URL(mirrorUrl).origin);
  });
  return {
    id,
    title,
    status: problems.length === 0 ? 'PASS' : 'FAIL',
    evidence: {
      method,
      at,
      mirror_url: mirrorUrl,
      artifacts: fetched,
      ...(problems.length ? { reason: TEXT.notFromMirror(problems.map((p) => `${p.host}:${p.path}`).join(', ')) } : {}),
    },
    ran_at: at,
  };
}

export function serviceLines(
  views: ServiceView[],
  fetched: (service: string) => FetchedArtifact[],
  catalog: Catalog | null,
  mirrorUrl: string | null,
  since: string,
  at: string,
): ReportLine[] {
  return [...views]
    .sort((a, b) => a.service.localeCompare(b.service))
    .flatMap((v) => [
      sourceLine(v, fetched(v.service), catalog, mirrorUrl, at),
      ...v.hosts.map((h) =>
        fromOutcome(`service.${v.service}.liveness.${h.name}`, TEXT.livenessTitle(v.service, h.name), v.checks?.liveness[h.id], since, at),
      ),
      fromOutcome(`service.${v.service}.readiness`, TEXT.readinessTitle(v.service), v.checks?.readiness, since, at),
      fromOutcome(`service.${v.service}.functional`, TEXT.functionalTitle(v.service), v.checks?.functional, since, at),
    ]);
}
