// The component.<name> lines: each ManagedComponent of the desired state is read from the cluster now, with
// the registered import identity, and its spec compared with the desired spec (member order irrelevant).
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { Clock } from '../clock';
import type { Registration } from '../clusters/registration';
import { classifyKubeError, httpStatus, kubeConfigFor } from '../kubernetes/kube-client';
import { API_GROUP, API_VERSION, IMPORT_SERVICE_ACCOUNT, MANAGED_COMPONENT_PLURAL } from '../kubernetes/names';
import { specDifferences } from './spec-diff';
import { TEXT } from './check-texts';
import { type Evidence, type ReportLine } from '../../contract/check-types';

/** An API server that accepts the connection but never answers must not hold the report forever. */
export const KUBE_READ_TIMEOUT_MS = 15_000;

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export async function componentLines(
  clusterId: string,
  desired: Record<string, unknown>,
  registration: Registration,
  clock: Clock,
  timeoutMs = KUBE_READ_TIMEOUT_MS,
): Promise<ReportLine[]> {
  const names = Object.keys(desired).sort();
  const access = registration.access(clusterId);
  const api = access ? kubeConfigFor(access).makeApiClient(CustomObjectsApi) : undefined;
  return Promise.all(
    names.map(async (name): Promise<ReportLine> => {
      const id = `component.${name}`;
      const title = TEXT.componentTitle(name);
      const ran_at = clock.now().toISOString();
      const desiredSpec = desired[name];
      if (!access || !api) {
        const evidence: Evidence = {
          method: 'read the ManagedComponent through the Kubernetes API with the import identity',
          at: ran_at,
          desired_spec: desiredSpec,
          reason: TEXT.componentNoAccess(IMPORT_SERVICE_ACCOUNT),
        };
        return { id, title, status: 'BLOCKED', evidence, ran_at };
      }
      const path = `/apis/${API_GROUP}/${API_VERSION}/namespaces/${access.namespace}/${MANAGED_COMPONENT_PLURAL}/${name}`;
      const evidence: Evidence = {
        method: `GET ${access.server}${path} as ${IMPORT_SERVICE_ACCOUNT}`,
        at: ran_at,
        namespace: access.namespace,
        desired_spec: desiredSpec,
      };
      try {
        const object = (await withTimeout(
          api.getNamespacedCustomObject({
            group: API_GROUP,
            version: API_VERSION,
            namespace: access.namespace,
            plural: MANAGED_COMPONENT_PLURAL,
            name,
          }),
          timeoutMs,
        )) as {
          metadata?: { resourceVersion?: string; generation?: number; uid?: string };
          spec?: unknown;
        };
        const observedSpec = object?.spec ?? null;
        evidence.observed_spec = observedSpec;
        evidence.resource_version = object?.metadata?.resourceVersion ?? null;
        evidence.generation = object?.metadata?.generation ?? null;
        const differences = specDifferences(desiredSpec, observedSpec);
        if (differences.length === 0) return { id, title, status: 'PASS', evidence, ran_at };
        evidence.differences = differences;
        evidence.reason = TEXT.componentDiffers(differences.map((d) => d.path).join(', '));
        return { id, title, status: 'FAIL', evidence, ran_at };
      } catch (error) {
        if (httpStatus(error) === 404) {
          evidence.http_status = 404;
          evidence.observed_spec = null;
          evidence.reason = TEXT.componentMissing(name, access.namespace);
          return { id, title, status: 'FAIL', evidence, ran_at };
        }
        const e = classifyKubeError(error, access.server);
        evidence.error_code = e.code;
        evidence.http_status = httpStatus(error) ?? null;
        evidence.reason = TEXT.kubeCallFailed(e.code, e.message);
        return { id, title, status: 'FAIL', evidence, ran_at };
      }
    }),
  );
}

/** functional.<name>: no component declares a functional test yet; the line says so rather than pass. */
export function functionalLines(desired: Record<string, unknown>, clock: Clock): ReportLine[] {
  return Object.keys(desired)
    .sort()
    .map((name) => {
      const ran_at = clock.now().toISOString();
      const spec = desired[name] as { functional_tests?: unknown } | undefined;
      const declared = Array.isArray(spec?.functional_tests) ? spec.functional_tests.length : 0;
      return {
        id: `functional.${name}`,
        title: TEXT.functionalTitle(name),
        status: 'BLOCKED',
        evidence: {
          method: 'look up the functional tests declared by the component in its desired spec',
          at: ran_at,
          declared_tests: declared,
          reason: TEXT.noFunctionalTest,
        },
        ran_at,
      } satisfies ReportLine;
    });
}
