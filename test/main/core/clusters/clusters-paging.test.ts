// GET /api/v1/clusters a page at a time: the console's order, the whole count on every page, a name cursor
// that survives changes between pages, and the whole list still answered when no page is asked for.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testManager, type TestManager } from '../../../support/manager';
import type { Credentials } from '../../../../main/core/http/router';

interface Page {
  items: { id: string; name: string; state: string; agent: unknown }[];
  total: number;
  next: string | null;
}

// Created out of order; the list's order compares digits as numbers.
const NAMES = ['edge-10', 'edge-9', 'a.b', 'edge-1', 'zulu', 'edge-2', 'b', 'edge-100'];
const ORDERED = ['a.b', 'b', 'edge-1', 'edge-2', 'edge-9', 'edge-10', 'edge-100', 'zulu'];

describe('clusters API, paged', () => {
  let t: TestManager;
  let admin: Credentials;
  let viewer: Credentials;

  beforeAll(async () => {
    t = testManager();
    admin = await t.login('alice', 'admin');
    viewer = await t.login('victor', 'viewer');
    for (const name of NAMES) expect((await t.call('POST', '/api/v1/clusters', { name }, admin)).status).toBe(201);
  });
  afterAll(() => t.close());

  const list = async (query = ''): Promise<Page> => {
    const res = await t.call('GET', `/api/v1/clusters${query}`, undefined, viewer);
    expect(res.status).toBe(200);
    return res.body as Page;
  };

  test('without a limit the whole list comes, in the console order, with its count and no next page', async () => {
    const all = await list();
    expect(all.items.map((c) => c.name)).toEqual(ORDERED);
    expect(all.total).toBe(ORDERED.length);
    expect(all.next).toBeNull();
    // Each item is the full view, as before paging.
    expect(all.items[0]).toMatchObject({ state: 'pending', agent: { connected: false } });
  });

  test('pages of 3 walk the whole list once, each with the whole count', async () => {
    const seen: string[] = [];
    const totals: number[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const page: Page = await list(`?limit=3${next ? `&after=${encodeURIComponent(next)}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((c) => c.name));
      totals.push(page.total);
      next = page.next;
      if (next !== null) expect(next).toBe(page.items.at(-1)?.name);
      pages++;
    } while (next !== null && pages < 10);
    expect(seen).toEqual(ORDERED);
    expect(pages).toBe(3);
    expect(totals).toEqual([8, 8, 8]);
  });

  test('a page that ends exactly at the end of the list says there is no next one', async () => {
    const page = await list(`?limit=2&after=edge-10`);
    expect(page.items.map((c) => c.name)).toEqual(['edge-100', 'zulu']);
    expect(page.next).toBeNull();
  });

  test('after without a limit is the rest of the list (what the console asks once its first page is shown)', async () => {
    const first = await list('?limit=2');
    expect(first.items.map((c) => c.name)).toEqual(['a.b', 'b']);
    expect(first.next).toBe('b');
    const rest = await list(`?after=${first.next}`);
    expect(rest.items.map((c) => c.name)).toEqual(ORDERED.slice(2));
    expect(rest.total).toBe(8);
    expect(rest.next).toBeNull();
  });

  test('after the last name, or past it, the page is empty', async () => {
    expect(await list('?limit=5&after=zulu')).toEqual({ items: [], total: 8, next: null });
    expect(await list('?after=zzz')).toEqual({ items: [], total: 8, next: null });
  });

  test('the cursor is a name: removing or adding clusters before it between pages does not shift the next page', async () => {
    const first = await list('?limit=4');
    expect(first.next).toBe('edge-2');
    const cursor = first.items.find((c) => c.name === 'edge-2');
    const early = first.items.find((c) => c.name === 'a.b');
    expect((await t.call('DELETE', `/api/v1/clusters/${cursor?.id}`, undefined, admin)).status).toBe(204);
    expect((await t.call('DELETE', `/api/v1/clusters/${early?.id}`, undefined, admin)).status).toBe(204);
    expect((await t.call('POST', '/api/v1/clusters', { name: 'aaa' }, admin)).status).toBe(201);
    const second = await list(`?limit=4&after=${first.next}`);
    expect(second.items.map((c) => c.name)).toEqual(['edge-9', 'edge-10', 'edge-100', 'zulu']);
    expect(second.total).toBe(7);
  });

  test.each([['limit=0'], ['limit=1001'], ['limit=ten'], ['limit=2.5'], ['limit=-1']])('%s is a 400 naming limit', async (q) => {
    const res = await t.call('GET', `/api/v1/clusters?${q}`, undefined, viewer);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'invalid_field', field: 'limit' } });
  });

  test('a cursor longer than any name is a 400 naming after', async () => {
    const res = await t.call('GET', `/api/v1/clusters?after=${'a'.repeat(254)}`, undefined, viewer);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'invalid_field', field: 'after' } });
  });

  test('a page still needs a login', async () => {
    const res = await t.call('GET', '/api/v1/clusters?limit=1');
    expect(res.status).toBe(401);
  });
});
