// Versions: the agent's version as it last reported itself, and the artifacts of the version to install
// looked up in the internal mirror (a real HEAD of each manifest).
import type { ProfileName } from '../clusters/profile-names';
import { PROFILE_RULES } from '../profiles/profile-rules';
import { lookupImages, parseImageReference, type MirrorSettings } from '../checks/mirror';
import type { Store } from '../store/store';
import type { CheckResult } from '../checks/check-types';
import { check } from '../checks/check';
import { TEXT } from './preflight-texts';

const T = { agent: TEXT.agentVersionTitle, artifacts: TEXT.artifactsTitle };

const majorMinor = (v: string): string => v.split('.').slice(0, 2).join('.');

export function agentVersionCheck(store: Store, clusterId: string, managerVersion: string, at: string): CheckResult {
  const status = store.commands.agentStatus(clusterId);
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

type Spec = { artifacts?: { name?: unknown; image?: unknown }[] };

export async function artifactChecks(
  mirror: MirrorSettings,
  profile: ProfileName,
  components: Record<string, Spec>,
  at: () => string,
  timeoutMs?: number,
): Promise<CheckResult[]> {
  const mirrorRequired = PROFILE_RULES[profile].includes('mirror_only');
  return Promise.all(
    Object.entries(components).map(async ([name, spec]): Promise<CheckResult> => {
      const id = `mirror.artifacts.${name}`;
      const images = (spec.artifacts ?? []).map((a) => a?.image).filter((i): i is string => typeof i === 'string');
      if (images.length === 0)
        return check(id, T.artifacts(name), 'warn', { method: 'read the artifacts of the component', artifacts: [] }, TEXT.noImage, at());
      if (!mirror.url)
        return check(
          id,
          T.artifacts(name),
          mirrorRequired ? 'fail' : 'warn',
          { method: 'read the internal mirror setting', mirror_url: null, artifacts: images },
          TEXT.noMirror,
          at(),
        );
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
