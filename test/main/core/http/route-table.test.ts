// The route table the console API and the agent gateway share: a path matched to its route with its parameters
// decoded, and a miss answered not_found, or method_not_allowed where the transport says so.
import { expect, test } from 'vitest';
import { RouteTable } from '../../../../main/core/http/route-table';
import { CoreError } from '../../../../main/core/errors';

interface R {
  method: string;
  pattern: string;
  name: string;
}

const routes = (wrongMethod: boolean): RouteTable<R> =>
  new RouteTable<R>({
    notFound: (method, path) => `none for ${method} ${path}`,
    ...(wrongMethod ? { wrongMethod: (method: string, path: string) => `${method} not on ${path}` } : {}),
  })
    .add({ method: 'GET', pattern: '/a/:id', name: 'get-a' })
    .add({ method: 'POST', pattern: '/a/:id', name: 'post-a' })
    .add({ method: 'GET', pattern: '/a/:id/b/:key', name: 'get-b' });

const thrown = (f: () => unknown): { code: string; message: string } => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    const e = error as CoreError;
    return { code: e.code, message: e.message };
  }
  throw new Error('nothing thrown');
};

test('a path is matched to the route of its method, with its parameters decoded', () => {
  const t = routes(true);
  expect(t.match('POST', '/a/x%2Fy')).toEqual({ route: t.list()[1], params: { id: 'x/y' } });
  const { route, params } = t.match('GET', '/a/%C3%A9t%C3%A9/b/k%20l');
  expect([route.name, params]).toEqual(['get-b', { id: 'été', key: 'k l' }]);
  // Empty segments are no part of a path, as before.
  expect(t.match('GET', '//a//1/').params).toEqual({ id: '1' });
});

test('a path no route has is not_found, with the message the transport gives', () => {
  expect(thrown(() => routes(true).match('GET', '/c'))).toEqual({ code: 'not_found', message: 'none for GET /c' });
  expect(thrown(() => routes(true).match('GET', '/a/1/b'))).toEqual({ code: 'not_found', message: 'none for GET /a/1/b' });
  // A parameter that is no percent-encoding matches no route.
  expect(thrown(() => routes(true).match('GET', '/a/%E0%A4%A'))).toMatchObject({ code: 'not_found' });
});

test('a known path with a method its routes do not take: method_not_allowed, or not_found when the transport says so', () => {
  expect(thrown(() => routes(true).match('DELETE', '/a/1'))).toEqual({ code: 'method_not_allowed', message: 'DELETE not on /a/1' });
  expect(thrown(() => routes(false).match('DELETE', '/a/1'))).toEqual({ code: 'not_found', message: 'none for DELETE /a/1' });
  expect(routes(false).find('DELETE', '/a/1')).toEqual({ route: undefined, pathKnown: true });
  expect(routes(false).find('DELETE', '/z')).toEqual({ route: undefined, pathKnown: false });
});

test('the table lists its routes in the order they were added', () => {
  expect(
    routes(true)
      .list()
      .map((r) => r.name),
  ).toEqual(['get-a', 'post-a', 'get-b']);
});
