// Versions: the agent's version as it last reported itself, and the artifacts of the version to install
// looked up in the internal mirror (a real HEAD of each manifest).
import type { Tables } from '../domain-tables';
import type { ProfileName } from '../clusters/profile-names';
import { PROFILE_RULES } from '../profiles/profile-rules';
import { lookupImages, parseImageReference, type MirrorSettings } from '../checks/mirror';
import type { Catalog } from '../catalog/catalog';
import { resolveFile } from '../mirror/artifacts';
import { MirrorError } from '../mirror/mirror-errors';
import { OciClient } from '../mirror/oci-client';
import type { CheckResult } from '../../contract/check-types';
import { check } from '../checks/check';
import { TEXT } from './preflight-texts';

const T = { agent: TEXT.agentVersionTitle, artifacts: TEXT.artifactsTitle };

const majorMinor = (v: string): string => v.split('.').slice(0, 2).join('.');

/** No mirror is set: a failure where the profile takes artifacts from the mirror only, else a warning. */
function noMirror(id: string, name: string, mirrorRequired: boolean, artifacts: Record<string, string[]>, at: string): CheckResult {
  const evidence = { method: 'read the internal mirror setting', mirror_url: null, ...artifacts };
  return check(id, T.artifacts(name), mirrorRequired ? 'fail' : 'warn', evidence, TEXT.noMirror, at);
}

export function agentVersionCheck(tables: Tables<'commands'>, clusterId: string, managerVersion: string, at: string): CheckResult {
  const status = tables.commands.agentStatus(clusterId);
  const evidence = {
    method: 'read the version the agent sent with its last gateway request',
    agent_version: status?.agent_version ?? null,
    last_seen: status?.last_seen ?? null,
    manager_version: managerVersion,
    supported: `${majorMinor(managerVersion)}.x`,
  };
  if (!status?.agent_version) return check('agent.version', T.agent, 'warn', evidence, TEXT.noAgentYet, at);
  if (majorMinor(status.agent_version) !== majorMinor(managerVersion))
    return check('agent.version', T.agent, 'fail', evidence, TEXT.agentVersionMismatch(status.agent_version, managerVersion), at);
  return check('agent.version', T.agent, 'pass', evidence, null, at);
}

type Spec = { component?: unknown; version?: unknown; artifacts?: { name?: unknown; image?: unknown }[] };

/**
 * A component that names no image but a version of the catalog is installed from the catalog's artifacts:
 * each must be in the mirror under its key (`navin/<service>/<name>:<version>`), holding the pinned file.
 */
async function catalogArtifactsCheck(
  id: string,
  name: string,
  mirror: MirrorSettings,
  mirrorRequired: boolean,
  catalog: Catalog,
  service: string,
  version: string,
  at: () => string,
  timeoutMs?: number,
): Promise<CheckResult> {
  const artifacts = catalog.artifacts(service, version);
  const keys = artifacts.map((a) => a.key);
  if (!mirror.url) return noMirror(id, name, mirrorRequired, { catalog_artifacts: keys }, at());
  const client = new OciClient({ url: mirror.url, ca_pem: mirror.ca_pem }, { timeoutMs });
  const lookups: Record<string, unknown>[] = [];
  const problems: string[] = [];
  try {
    for (const a of artifacts)
      for (const p of a.platforms) {
        if (!p.available) {
          problems.push(`${a.key} (${p.architecture}) is unavailable: ${p.reason}`);
          continue;
        }
        try {
          const found = await resolveFile(client, a.repository, a.tag, p.architecture);
          lookups.push({ key: a.key, architecture: p.architecture, index: found.index.digest, file: found.file.digest, pinned: p.digest });
          if (found.file.digest !== p.digest)
            problems.push(`${a.key} (${p.architecture}) is ${found.file.digest} in the mirror, the catalog pins ${p.digest}`);
        } catch (error) {
          if (!(error instanceof MirrorError)) throw error;
          lookups.push({ key: a.key, architecture: p.architecture, error: `${error.code}: ${error.message}` });
          problems.push(
            error.code === 'mirror_not_found'
              ? `${a.key} (${p.architecture}) is not in the mirror`
              : `${a.key} (${p.architecture}): ${error.message}`,
          );
        }
      }
  } finally {
    client.close();
  }
  const evidence = {
    method:
      'GET the index of navin/<service>/<name>:<version> and the manifest of each architecture in the internal mirror, each checked against its digest, for every artifact the catalog declares',
    mirror_url: mirror.url,
    catalog_digest: catalog.digest,
    lookups,
  };
  if (problems.length) return check(id, T.artifacts(name), 'fail', evidence, TEXT.artifactProblems(problems), at());
  return check(id, T.artifacts(name), 'pass', evidence, null, at());
}

export async function artifactChecks(
  mirror: MirrorSettings,
  profile: ProfileName,
  components: Record<string, Spec>,
  at: () => string,
  timeoutMs?: number,
  catalog?: Catalog | null,
): Promise<CheckResult[]> {
  const mirrorRequired = PROFILE_RULES[profile].includes('mirror_only');
  return Promise.all(
    Object.entries(components).map(async ([name, spec]): Promise<CheckResult> => {
      const id = `mirror.artifacts.${name}`;
      const images = (spec.artifacts ?? []).map((a) => a?.image).filter((i): i is string => typeof i === 'string');
      const fromCatalog = catalog?.version(String(spec.component), String(spec.version));
      if (images.length === 0 && fromCatalog && catalog)
        return catalogArtifactsCheck(
          id,
          name,
          mirror,
          mirrorRequired,
          catalog,
          String(spec.component),
          String(spec.version),
          at,
          timeoutMs,
        );
      if (images.length === 0)
        return check(id, T.artifacts(name), 'warn', { method: 'read the artifacts of the component', artifacts: [] }, TEXT.noImage, at());
      if (!mirror.url) return noMirror(id, name, mirrorRequired, { artifacts: images }, at());
      const url = mirror.url;
      const lookups = await lookupImages({ url, ca_pem: mirror.ca_pem }, images, timeoutMs);
      const evidence = {
        method: 'HEAD /v2/<repository>/manifests/<digest> on the internal mirror for each artifact',
        mirror_url: url,
        lookups,
      };
      const missing = lookups
        .filter((l) => !l.found)
        .map((l) => `${l.image} (${l.http_status === 404 ? '404' : (l.error ?? `HTTP ${l.http_status}`)})`);
      if (missing.length) return check(id, T.artifacts(name), 'fail', evidence, TEXT.notInMirror(missing.join(', ')), at());
      // Found by digest, but a reference naming another registry is pulled from there unless the container
      // runtime mirrors that registry: a failure where the profile allows the mirror only, a warning elsewhere.
      const mirrorHost = new URL(url).host;
      const elsewhere = images.filter((i) => parseImageReference(i)?.registry !== mirrorHost);
      if (elsewhere.length) {
        const list = elsewhere.join(', ');
        return check(
          id,
          T.artifacts(name),
          mirrorRequired ? 'fail' : 'warn',
          { ...evidence, mirror_host: mirrorHost, named_elsewhere: elsewhere },
          TEXT.namedElsewhere(mirrorHost, list),
          at(),
        );
      }
      return check(id, T.artifacts(name), 'pass', evidence, null, at());
    }),
  );
}
