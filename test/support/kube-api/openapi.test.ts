// /openapi/v3 and /openapi/v2 as clients read them (hashes, redirects, ETags, the v2 protobuf), and fieldValidation.
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeRequest } from './rest-client.js';
import type { KubeApiServer } from './server.js';
import { startKubeApiServer } from './server.js';

let server: KubeApiServer;
beforeAll(async () => {
  server = await startKubeApiServer();
});
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}): ReturnType<typeof kubeRequest> =>
  kubeRequest(server.kubeConfig(), 'GET', path, undefined, 'application/json', headers);
const discovery = async (): Promise<Record<string, { serverRelativeURL: string }>> =>
  (JSON.parse((await get('/openapi/v3')).text) as { paths: Record<string, { serverRelativeURL: string }> }).paths;

describe('OpenAPI v3', () => {
  it('lists one document per group-version, each with the schemas and PATCH operations kubectl looks for', async () => {
    const paths = await discovery();
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/apps/v1', 'apis/rbac.authorization.k8s.io/v1']));
    const url = paths['apis/apps/v1']?.serverRelativeURL ?? '';
    expect(url).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const res = await get(url);
    expect(res.headers['cache-control']).toBe('public, immutable');
    const doc = JSON.parse(res.text) as {
      paths: Record<
        string,
        { patch?: { parameters: { name: string }[]; requestBody: { content: object }; 'x-kubernetes-group-version-kind': object } }
      >;
      components: {
        schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; 'x-kubernetes-group-version-kind'?: object[] }>;
      };
    };
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.patch;
    expect(patch?.['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', kind: 'Deployment', version: 'v1' });
    expect(patch?.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['fieldValidation', 'fieldManager', 'force', 'dryRun']));
    expect(Object.keys(patch?.requestBody.content ?? {})).toContain('application/strategic-merge-patch+json');
    expect(doc.components.schemas['io.k8s.api.apps.v1.Deployment']?.['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', kind: 'Deployment', version: 'v1' },
    ]);
    expect(doc.components.schemas['io.k8s.api.core.v1.PodSpec']?.properties?.containers).toMatchObject({
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
  });

  it('redirects a stale hash to the current one, and answers 304 to the ETag the client holds', async () => {
    const url = (await discovery())['api/v1']?.serverRelativeURL ?? '';
    const stale = await get('/openapi/v3/api/v1?hash=0000');
    expect([stale.status, stale.headers.location]).toEqual([301, url]);
    const first = await get(url);
    const again = await get(url, { 'If-None-Match': String(first.headers.etag) });
    expect([again.status, again.text]).toEqual([304, '']);
  });

  it('a new CRD gets its own document, from its schema, and changes nothing else', async () => {
    const before = await discovery();
    await server.apply(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gadgets.example.com }
spec:
  group: example.com
  scope: Cluster
  names: { plural: gadgets, singular: gadget, kind: Gadget }
  versions:
    - name: v1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object, properties: { spec: { type: object, properties: { size: { type: integer } } } } } }
`);
    const after = await discovery();
    expect(after['apis/apps/v1']).toEqual(before['apis/apps/v1']);
    const doc = JSON.parse((await get(after['apis/example.com/v1']?.serverRelativeURL ?? '')).text) as {
      paths: Record<string, { patch?: { requestBody: { content: object } } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(doc.components.schemas['com.example.v1.Gadget']?.properties.spec).toEqual({
      type: 'object',
      properties: { size: { type: 'integer' } },
    });
    expect(Object.keys(doc.paths['/apis/example.com/v1/gadgets/{name}']?.patch?.requestBody.content ?? {})).not.toContain(
      'application/strategic-merge-patch+json',
    );
  });
});

describe('OpenAPI v2', () => {
  it('is served as JSON and as the gnostic protobuf kubectl decodes', async () => {
    const json = JSON.parse((await get('/openapi/v2')).text) as {
      swagger: string;
      definitions: Record<string, { properties: Record<string, unknown> }>;
    };
    expect(json.swagger).toBe('2.0');
    expect(json.definitions['io.k8s.api.apps.v1.Deployment']?.properties.spec).toEqual({
      $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec',
    });
    const res = await new Promise<Buffer>((resolve, reject) => {
      // Binary body: read it raw rather than as text.
      void (async () => {
        const { request } = await import('node:https');
        const kc = server.kubeConfig();
        const opts = { method: 'GET', headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } };
        await kc.applyToHTTPSOptions(opts);
        const req = request(`${server.url}/openapi/v2`, opts, (r) => {
          expect(r.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve(Buffer.concat(chunks)));
        });
        req.on('error', reject);
        req.end();
      })().catch(reject);
    });
    const Document = new protobuf.Root()
      .loadSync(fileURLToPath(new URL('./openapi-v2.proto', import.meta.url)), { keepCase: true })
      .lookupType('openapi.v2.Document');
    const doc = Document.toObject(Document.decode(res)) as {
      swagger: string;
      definitions: { additional_properties: { name: string; value: { vendor_extension?: { name: string; value: { yaml: string } }[] } }[] };
    };
    expect(doc.swagger).toBe('2.0');
    const dep = doc.definitions.additional_properties.find((d) => d.name === 'io.k8s.api.apps.v1.Deployment');
    expect(dep?.value.vendor_extension?.find((e) => e.name === 'x-kubernetes-group-version-kind')?.value.yaml).toBe(
      '- group: apps\n  kind: Deployment\n  version: v1\n',
    );
  });
});

describe('fieldValidation', () => {
  const post = (query: string, body: object): ReturnType<typeof kubeRequest> =>
    kubeRequest(server.kubeConfig(), 'POST', `/api/v1/namespaces/default/configmaps${query}`, body);

  it('Warn (the default) drops an unknown field with a warning, Ignore silently, Strict refuses the object', async () => {
    const warn = await post('', { metadata: { name: 'fv-warn' }, data: { a: '1' }, spec: { x: 1 } });
    expect([warn.status, warn.headers.warning]).toEqual([201, '299 - "unknown field \\"spec\\""']);
    expect(server.store.get('v1', 'ConfigMap', 'fv-warn', 'default')).not.toHaveProperty('spec');
    const ignore = await post('?fieldValidation=Ignore', { metadata: { name: 'fv-ignore' }, spec: { x: 1 } });
    expect([ignore.status, ignore.headers.warning]).toEqual([201, undefined]);
    const strict = await post('?fieldValidation=Strict', { metadata: { name: 'fv-strict', labelz: {} }, spec: { x: 1 } });
    expect(strict.status).toBe(400);
    expect(JSON.parse(strict.text)).toMatchObject({
      reason: 'BadRequest',
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.labelz", unknown field "spec"',
    });
    expect(server.store.get('v1', 'ConfigMap', 'fv-strict', 'default')).toBeUndefined();
    const shape = await post('', { metadata: { name: 'fv-shape' }, data: ['a'] });
    expect([shape.status, (JSON.parse(shape.text) as { message: string }).message]).toEqual([
      400,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into field data of type object',
    ]);
    expect((await post('?fieldValidation=Loose', { metadata: { name: 'fv-bad' } })).status).toBe(400);
  });
});
