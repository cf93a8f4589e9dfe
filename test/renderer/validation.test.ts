import { describe, expect, it } from 'vitest';
import {
  isValidClusterName,
  validateClusterName,
  validateComponentSpec,
  validateGatewayUrl,
  validateImageDigest,
  validateNamespace,
} from '../../renderer/src/api/validation';
import { MAX_CLUSTER_NAME } from '../../preload/api';
import { parseComponentDocument } from '../../renderer/src/features/components/componentDocument';
import { readableMemory } from '../../renderer/src/lib/quantity';
import { labelProblem, nameProblem } from '../../main/core/clusters/names';
import { checkImage } from '../../main/core/kubernetes/image-reference';

describe('cluster name rule (mirrors the server)', () => {
  it.each(['edge-paris-1', 'a', '0', 'a.b-c', 'prod.eu-west.3', 'x'.repeat(MAX_CLUSTER_NAME)])('accepts %s', (name) => {
    expect(validateClusterName(name)).toBeNull();
    expect(isValidClusterName(name)).toBe(true);
  });

  it.each([
    ['', 'required'],
    ['x'.repeat(MAX_CLUSTER_NAME + 1), 'too_long'],
    ['Edge', 'uppercase'],
    ['EDGE-1', 'uppercase'],
    ['Bad_Name', 'invalid_chars'],
    ['bad name', 'invalid_chars'],
    ['café', 'invalid_chars'],
    ['-edge', 'edge'],
    ['edge-', 'edge'],
    ['.edge', 'edge'],
    ['edge.', 'edge'],
    ['-', 'edge'],
  ])('refuses %j (%s)', (name, problem) => {
    expect(validateClusterName(name)).toBe(problem);
  });
});
const DIGEST = `registry.local/opa@sha256:${'a'.repeat(64)}`;

describe("the console's checks agree with the manager's", () => {
  const NAMES = ['edge-paris-1', 'a', 'a.b-c', 'Edge', 'bad name', 'café', '-edge', 'edge.', 'a..b', 'x'.repeat(63), 'x'.repeat(64), ''];

  it.each([...NAMES, 'x'.repeat(MAX_CLUSTER_NAME), 'x'.repeat(MAX_CLUSTER_NAME + 1)])('a cluster name %j', (name) => {
    expect(validateClusterName(name) === null).toBe(nameProblem(name) === undefined);
  });

  it.each(NAMES)('a namespace %j', (name) => {
    expect(validateNamespace(name) === null).toBe(labelProblem(name) === undefined);
  });

  it.each([
    DIGEST,
    'registry.local:5000/a/b:1.2@sha256:' + 'f'.repeat(64),
    'opa:1.2',
    'opa@sha256:abc',
    ' ',
    'Opa@sha256:' + 'a'.repeat(64),
  ])('an image %j', (image) => {
    const core = ((): boolean => {
      try {
        checkImage(image.trim());
        return true;
      } catch {
        return false;
      }
    })();
    expect(validateImageDigest(image) === null).toBe(core);
  });
});

describe('Kubernetes and agent inputs', () => {
  it('namespaces are DNS-1123 labels', () => {
    expect(validateNamespace('navin-platform')).toBeNull();
    expect(validateNamespace('')).toBe('required');
    expect(validateNamespace('Navin')).toBe('uppercase');
    expect(validateNamespace('a.b')).toBe('invalid_chars');
    expect(validateNamespace('-a')).toBe('edge');
    expect(validateNamespace('a'.repeat(64))).toBe('too_long');
  });

  it('gateway URLs are https, host and port only', () => {
    expect(validateGatewayUrl('https://manager.example:8462')).toBeNull();
    expect(validateGatewayUrl('https://127.0.0.1:8462/')).toBeNull();
    expect(validateGatewayUrl('')).toBe('required');
    expect(validateGatewayUrl('manager:8462')).toBe('not_https');
    expect(validateGatewayUrl('not a url')).toBe('not_url');
    expect(validateGatewayUrl('http://manager:8462')).toBe('not_https');
    expect(validateGatewayUrl('https://u:p@manager:8462')).toBe('credentials');
    expect(validateGatewayUrl('https://manager:8462/v1')).toBe('path');
  });

  it('images are pinned by digest', () => {
    expect(validateImageDigest(DIGEST)).toBeNull();
    expect(validateImageDigest('registry.local/opa:1.0')).toBe('tag_only');
    expect(validateImageDigest('registry.local/opa@sha256:abc')).toBe('invalid');
  });

  it('specs follow the ManagedComponent schema, first problem named by field', () => {
    expect(
      validateComponentSpec({
        component: 'opa',
        version: '1',
        replicas: 2,
        artifacts: [{ name: 'opa', image: DIGEST }],
        resources: { cpu: '500m', memory: '256Mi' },
      }),
    ).toBeNull();
    expect(validateComponentSpec({ component: 'mysql', version: '1' })).toEqual({ field: 'spec.component', problem: 'component' });
    expect(validateComponentSpec({ component: 'opa' })).toEqual({ field: 'spec.version', problem: 'version' });
    expect(validateComponentSpec({ component: 'opa', version: '1', replicas: 100 })).toEqual({
      field: 'spec.replicas',
      problem: 'replicas',
    });
    expect(validateComponentSpec({ component: 'opa', version: '1', artifacts: [{ name: 'x', image: 'x:1' }] })).toEqual({
      field: 'spec.artifacts[0]',
      problem: 'artifact',
    });
    expect(validateComponentSpec({ component: 'opa', version: '1', resources: { cpu: 'lots' } })).toEqual({
      field: 'spec.resources',
      problem: 'resources',
    });
    expect(validateComponentSpec({ component: 'opa', version: '1', extra: 1 })).toEqual({ field: 'spec.extra', problem: 'unknown_field' });
  });

  it('the editor reads a ManagedComponent in YAML or the API body in JSON', () => {
    expect(
      parseComponentDocument(
        'apiVersion: platform.navin.ai/v1alpha1\nkind: ManagedComponent\nmetadata:\n  name: opa-main\nspec:\n  component: opa\n  version: "1.0"\n',
      ),
    ).toEqual({
      ok: true,
      name: 'opa-main',
      spec: { component: 'opa', version: '1.0' },
    });
    expect(parseComponentDocument('{"name": "nats", "spec": {"component": "nats", "version": "2.10"}}')).toMatchObject({
      ok: true,
      name: 'nats',
    });
    expect(parseComponentDocument('')).toEqual({ ok: false, issue: { kind: 'empty' } });
    expect(parseComponentDocument('kind: Deployment\nmetadata: {name: x}\n')).toMatchObject({
      ok: false,
      issue: { kind: 'wrong_kind', found: 'Deployment' },
    });
    expect(parseComponentDocument('a: [\n')).toMatchObject({ ok: false, issue: { kind: 'syntax' } });
    expect(parseComponentDocument('name: a\nspec: {component: opa, version: "1"}\n---\nname: b\n')).toEqual({
      ok: false,
      issue: { kind: 'several' },
    });
    expect(parseComponentDocument('name: Bad\nspec: {component: opa, version: "1"}\n')).toMatchObject({
      ok: false,
      issue: { kind: 'name', problem: 'uppercase' },
    });
    expect(parseComponentDocument('name: a\nspec: {component: opa, version: "1", replicas: -1}\n')).toMatchObject({
      ok: false,
      issue: { kind: 'spec', issue: { field: 'spec.replicas' } },
    });
  });

  it('memory quantities read as GiB or MiB', () => {
    expect(readableMemory('8025424Ki')).toEqual({ value: 7.7, unit: 'GiB' });
    expect(readableMemory('512Mi')).toEqual({ value: 512, unit: 'MiB' });
    expect(readableMemory('2G')).toEqual({ value: 1.9, unit: 'GiB' });
    expect(readableMemory('lots')).toBeNull();
  });
});
