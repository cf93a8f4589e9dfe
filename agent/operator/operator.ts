// The operator's reconcile loop: each ManagedComponent whose spec is the one the manager signed becomes its
// objects (server-side apply, owned by the resource); one that is not is left alone and its status says why.
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  loadYaml,
  PatchStrategy,
  Watch,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { sameSpec } from '../components';
import { log } from '../log';
import { singleFlight } from '../single-flight';
import { routeFor, routesOf, tlsSecretName, type RouteFacts, type RouteStatus } from './routes';
import { readSignedState, type SignedState } from './signed-state';
import { OPERATOR_NAME, objectsFor, selectorFor, type ManagedComponentObject } from './workloads';

const GROUP = 'platform.navin.ai';
const VERSION = 'v1alpha1';
const PLURAL = 'managedcomponents';
/** Held on every resource the operator acted on, so its objects go in order before it does. */
export const FINALIZER = 'platform.navin.ai/operator';

export interface OperatorOptions {
  kc: KubeConfig;
  namespace: string;
  ingressNamespace: string;
  /** Where the pod mounts manager.pem and config.json of the identity Secret. */
  identityDir: string;
  resyncMs?: number;
}

interface Status {
  phase: 'Pending' | 'Applied' | 'Ready' | 'Failed';
  ready: string;
  routed: string;
  routes: RouteStatus[];
  observedGeneration?: number;
  conditions: { type: string; status: 'True' | 'False'; reason: string; message: string; lastTransitionTime: string }[];
}

export class Operator {
  private readonly custom: CustomObjectsApi;
  private readonly objects: KubernetesObjectApi;
  private timer: NodeJS.Timeout | undefined;
  private readonly watchAborts = new Set<{ abort(): void }>();
  private stopped = false;
  /** Runs one pass now, or right after the current one. */
  readonly kick = singleFlight(
    () => this.pass(),
    (error) => log('operator.pass_failed', { error: (error as Error).message }, 'warn'),
    () => this.stopped,
  );

  constructor(private readonly o: OperatorOptions) {
    this.custom = o.kc.makeApiClient(CustomObjectsApi);
    this.objects = KubernetesObjectApi.makeApiClient(o.kc);
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.o.resyncMs ?? 10_000);
    // A route is re-evaluated when its resource or its Ingress changes; a certificate becoming ready is seen by
    // the resync (no Secret is watched: the operator may read none).
    const ns = this.o.namespace;
    for (const path of [`/apis/${GROUP}/${VERSION}/namespaces/${ns}/${PLURAL}`, `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`])
      void this.watch(path);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const w of this.watchAborts) w.abort();
  }

  private base() {
    return { group: GROUP, version: VERSION, namespace: this.o.namespace, plural: PLURAL };
  }

  private async pass(): Promise<void> {
    const state = await readSignedState(this.o.kc, this.o.namespace, this.o.identityDir);
    const list = (await this.custom.listNamespacedCustomObject(this.base())) as { items: (ManagedComponentObject & { status?: Status })[] };
    for (const mc of list.items) {
      if (mc.metadata.deletionTimestamp) {
        if (mc.metadata.finalizers?.includes(FINALIZER)) await this.deleteInOrder(mc);
        continue;
      }
      const status = await this.reconcile(mc, state).catch((error: unknown): Status =>
        refused(mc, 'ApplyFailed', (error as Error).message, 'Failed'),
      );
      await this.writeStatus(mc, status);
    }
  }

  private async reconcile(mc: ManagedComponentObject, state: SignedState): Promise<Status> {
    if (!state.ok) return refused(mc, state.reason, state.message);
    const signed = state.desired.components[mc.metadata.name];
    if (!signed || !sameSpec(signed, mc.spec)) {
      log('operator.refused', { component: mc.metadata.name, reason: 'SpecNotSigned' }, 'warn');
      return refused(mc, 'SpecNotSigned', 'the spec differs from the desired state the manager signed: not acted on');
    }
    if (!mc.metadata.finalizers?.includes(FINALIZER)) await this.setFinalizers(mc, [...(mc.metadata.finalizers ?? []), FINALIZER]);
    let ready = 0;
    const replicas = mc.spec.replicas ?? 1;
    for (const obj of objectsFor(mc, this.o.ingressNamespace)) {
      const applied = await this.apply(obj);
      if (obj.kind === 'Deployment' || obj.kind === 'StatefulSet')
        ready = (applied as KubernetesObject & { status?: { readyReplicas?: number } }).status?.readyReplicas ?? 0;
    }
    const routes = await this.reconcileRoutes(mc);
    log('operator.applied', { component: mc.metadata.name, generation: state.desired.generation });
    return {
      phase: ready >= replicas ? 'Ready' : 'Applied',
      ready: `${ready}/${replicas}`,
      routed: routes.length ? `${routes.filter((r) => r.routed).length}/${routes.length}` : '-',
      routes,
      ...(mc.metadata.generation !== undefined ? { observedGeneration: mc.metadata.generation } : {}),
      conditions: [condition('Verified', 'True', 'Signed', 'the spec is the one the manager signed')],
    };
  }

  private async setFinalizers(mc: ManagedComponentObject, finalizers: string[]): Promise<void> {
    await this.custom.patchNamespacedCustomObject({
      ...this.base(),
      name: mc.metadata.name,
      body: [{ op: 'add', path: '/metadata/finalizers', value: finalizers }],
    });
  }

  /**
   * Deletion order: the workload first (no pod serves a half-removed component), then the namespace's objects it
   * used (routes, Service, NetworkPolicy, ConfigMap), then the resource itself by releasing the finalizer.
   */
  private async deleteInOrder(mc: ManagedComponentObject): Promise<void> {
    const ns = mc.metadata.namespace;
    const workload = objectsFor(mc, this.o.ingressNamespace).find((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')!;
    if (await this.remove(workload.apiVersion!, workload.kind!, ns, mc.metadata.name)) return; // gone next pass
    const selector = Object.entries(selectorFor(mc))
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const kinds: [string, string][] = [['networking.k8s.io/v1', 'Ingress']];
    if ((await this.routeFacts([])).gatewayApi) kinds.push(['gateway.networking.k8s.io/v1', 'HTTPRoute']);
    for (const [apiVersion, kind] of kinds)
      for (const item of (await this.objects.list(apiVersion, kind, ns, undefined, undefined, undefined, undefined, selector)).items)
        await this.remove(apiVersion, kind, ns, item.metadata!.name!);
    for (const obj of objectsFor(mc, this.o.ingressNamespace)
      .filter((o) => o !== workload)
      .reverse())
      await this.remove(obj.apiVersion!, obj.kind!, ns, obj.metadata!.name!);
    await this.setFinalizers(
      mc,
      (mc.metadata.finalizers ?? []).filter((f) => f !== FINALIZER),
    );
    log('operator.released', { component: mc.metadata.name });
  }

  /** Deletes one object; true while it is still there after that (a finalizer of its own): the caller waits. */
  private async remove(apiVersion: string, kind: string, namespace: string, name: string): Promise<boolean> {
    try {
      await this.objects.delete({ apiVersion, kind, metadata: { name, namespace } });
      log('operator.deleted', { kind, name });
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return false;
      throw error;
    }
    return this.objects.read({ apiVersion, kind, metadata: { name, namespace } }).then(
      () => true,
      (error: unknown) => {
        if ((error as { code?: unknown }).code === 404) return false;
        throw error;
      },
    );
  }

  private async apply(obj: KubernetesObject): Promise<KubernetesObject> {
    // The client serializes through its models, which name some fields otherwise (`from` is `_from`):
    // reading the plain object as YAML turns it into those models first.
    const model = loadYaml<KubernetesObject>(JSON.stringify(obj));
    return this.objects.patch(model, undefined, undefined, OPERATOR_NAME, true, PatchStrategy.ServerSideApply);
  }

  /** Makes each declared route that may exist, removes the others this component owns, and says which are routed. */
  private async reconcileRoutes(mc: ManagedComponentObject): Promise<RouteStatus[]> {
    const { routes, invalid } = routesOf(mc);
    const facts = await this.routeFacts(routes.filter((r) => r.tls === 'cert-manager').map((r) => tlsSecretName(r.site)));
    const wanted = new Set<string>();
    const statuses: RouteStatus[] = [...invalid];
    for (const r of routes) {
      const { object, status } = routeFor(mc, r, facts);
      if (object) {
        await this.apply(object);
        wanted.add(`${object.kind}/${object.metadata!.name}`);
      }
      statuses.push(status);
    }
    const selector = Object.entries(selectorFor(mc))
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const kinds: [string, string][] = [['networking.k8s.io/v1', 'Ingress']];
    if (facts.gatewayApi) kinds.push(['gateway.networking.k8s.io/v1', 'HTTPRoute']);
    for (const [apiVersion, kind] of kinds) {
      const present = await this.objects.list(
        apiVersion,
        kind,
        mc.metadata.namespace,
        undefined,
        undefined,
        undefined,
        undefined,
        selector,
      );
      for (const item of present.items)
        if (item.metadata?.name?.startsWith('navin-route-') && !wanted.has(`${kind}/${item.metadata.name}`))
          await this.objects.delete({ apiVersion, kind, metadata: { name: item.metadata.name, namespace: mc.metadata.namespace } });
    }
    return statuses;
  }

  /**
   * What routes depend on. A cert-manager certificate counts as written when its Certificate (named, by
   * cert-manager's ingress-shim, as the Secret) is Ready: the Certificate holds no key, the Secret would.
   */
  private async routeFacts(certificateNames: string[]): Promise<RouteFacts> {
    const crd = this.o.kc.makeApiClient(ApiextensionsV1Api);
    const has = (name: string) =>
      crd
        .readCustomResourceDefinition({ name })
        .then(() => true)
        .catch(() => false);
    const certManager = await has('certificates.cert-manager.io');
    const ready = new Set<string>();
    if (certManager)
      for (const name of certificateNames) {
        const cert = (await this.custom
          .getNamespacedCustomObject({ group: 'cert-manager.io', version: 'v1', namespace: this.o.namespace, plural: 'certificates', name })
          .catch(() => null)) as { status?: { conditions?: { type?: string; status?: string }[] } } | null;
        if (cert?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ready.add(name);
      }
    return {
      certificateReady: (name) => ready.has(name),
      gatewayApi: await has('httproutes.gateway.networking.k8s.io'),
      certManager,
    };
  }

  private async writeStatus(mc: ManagedComponentObject & { status?: Status }, status: Status): Promise<void> {
    // The transition time moves only when a condition changes, as the API conventions ask.
    for (const c of status.conditions) {
      const before = mc.status?.conditions?.find((x) => x.type === c.type);
      if (before && before.status === c.status && before.reason === c.reason) c.lastTransitionTime = before.lastTransitionTime;
    }
    if (mc.status && sameSpec(mc.status, { ...mc.status, ...status })) return;
    await this.custom.replaceNamespacedCustomObjectStatus({ ...this.base(), name: mc.metadata.name, body: { ...mc, status } });
  }

  private async watch(path: string): Promise<void> {
    while (!this.stopped) {
      await new Promise<void>((resolve) => {
        void new Watch(this.o.kc)
          .watch(
            path,
            {},
            () => this.kick(),
            () => resolve(),
          )
          .then((req) => {
            this.watchAborts.add(req);
            if (this.stopped) req.abort();
          })
          .catch(() => resolve());
      });
      // The periodic pass covers the gap; reconnect after a pause.
      if (!this.stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

const condition = (type: string, status: 'True' | 'False', reason: string, message: string) => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: new Date().toISOString(),
});

function refused(mc: ManagedComponentObject, reason: string, message: string, phase: Status['phase'] = 'Pending'): Status {
  return {
    phase,
    ready: '-',
    routed: '-',
    routes: [],
    ...(mc.metadata.generation !== undefined ? { observedGeneration: mc.metadata.generation } : {}),
    conditions: [condition('Verified', phase === 'Failed' ? 'True' : 'False', reason, message)],
  };
}
