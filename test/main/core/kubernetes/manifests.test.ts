import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { importRbacYaml } from '../../../../main/core/kubernetes/import-rbac';
import { agentManifestsYaml, checkImage } from '../../../../main/core/kubernetes/agent-manifests';

const DIGEST = `registry.local/navin/agent@sha256:${'a'.repeat(64)}`;
const docs = (yaml: string): Record<string, any>[] => parseAllDocuments(yaml).map((d) => d.toJSON() as Record<string, any>);

describe('generated manifests', () => {
  test('the import YAML holds the namespace, the CRD, the ServiceAccount navin-import and its roles, in apply order', () => {
    const kinds = docs(importRbacYaml('navin-platform', 'edge')).map((d) => `${d.kind}/${d.metadata.name}`);
    expect(kinds[0]).toBe('Namespace/navin-platform');
    expect(kinds).toContain('CustomResourceDefinition/managedcomponents.platform.navin.ai');
    expect(kinds).toContain('ServiceAccount/navin-import');
  });

  test('the import identity has no rule on secrets, workloads other than coredns, or RBAC', () => {
    const rules = docs(importRbacYaml('navin-platform', 'edge'))
      .filter((d) => d.kind === 'Role' || d.kind === 'ClusterRole')
      .flatMap((d) => d.rules as any[]);
    for (const r of rules) {
      expect(r.resources).not.toContain('secrets');
      expect(r.apiGroups).not.toContain('rbac.authorization.k8s.io');
      if (r.apiGroups.includes('apps')) expect(r.resourceNames).toEqual(['coredns']);
      expect(r.apiGroups).not.toContain('*');
    }
  });

  test('the CRD has an OpenAPI schema, the status subresource and printer columns', () => {
    const crd = docs(importRbacYaml('navin-platform', 'edge')).find((d) => d.kind === 'CustomResourceDefinition')!;
    const v = crd.spec.versions[0];
    expect(v.subresources).toEqual({ status: {} });
    expect(v.schema.openAPIV3Schema.properties.spec.required).toEqual(['component', 'version']);
    expect(v.additionalPrinterColumns.map((c: { name: string }) => c.name)).toEqual(['Service', 'Version', 'Ready', 'Routed', 'Age']);
  });

  test('the agent Deployment is hardened, 2 replicas with anti-affinity, pinned by digest, with no Service', () => {
    const all = docs(agentManifestsYaml('navin-platform', DIGEST, 'c1', 'edge'));
    expect(all.some((d) => d.kind === 'Service')).toBe(false);
    const dep = all.find((d) => d.kind === 'Deployment')!;
    expect(dep.spec.replicas).toBe(2);
    const pod = dep.spec.template.spec;
    expect(pod.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey).toBe('kubernetes.io/hostname');
    const c = pod.containers[0];
    expect(c.image).toBe(DIGEST);
    expect(c.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(c.resources.requests).toBeDefined();
    expect(c.resources.limits).toBeDefined();
    expect(c.ports).toBeUndefined();
    expect(c.volumeMounts.find((m: { name: string }) => m.name === 'identity').readOnly).toBe(true);
    expect(pod.volumes.find((v: { name: string }) => v.name === 'identity').secret.secretName).toBe('navin-cluster-agent-identity');
  });

  test('the agent Role grants no workload, and of Secrets only get and update of its own identity Secret by name', () => {
    const role = docs(agentManifestsYaml('navin-platform', DIGEST, 'c1', 'edge')).find((d) => d.kind === 'Role')!;
    const core = (r: any): boolean => r.apiGroups.includes('') || r.apiGroups.includes('*');
    const secretRules = (role.rules as any[]).filter((r) => core(r) && (r.resources.includes('secrets') || r.resources.includes('*')));
    expect(secretRules).toEqual([
      { apiGroups: [''], resources: ['secrets'], resourceNames: ['navin-cluster-agent-identity'], verbs: ['get', 'update'] },
    ]);
    for (const r of role.rules as any[]) expect(r.apiGroups).not.toContain('apps');
  });

  test.each([['registry.local/navin/agent:1.0'], ['registry.local/navin/agent'], [`agent@sha256:${'z'.repeat(64)}`], ['']])(
    'the image %j is refused',
    (image) => {
      expect(() => checkImage(image)).toThrow(expect.objectContaining({ code: 'invalid_field', field: 'image' }));
    },
  );
});
