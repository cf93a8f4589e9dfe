// The routing the console API and the agent gateway share: a table of routes by method and pattern
// (`/api/v1/clusters/:id`), a request's path matched to its route with the parameters decoded, and the answers
// for a path no route has and for a method its routes do not take. What a route carries beside (access, schemas,
// handler) is each transport's own.
import { CoreError } from '../errors';

export interface TableRoute {
  method: string;
  pattern: string;
}

/** A request's route and its decoded path parameters, or none (`pathKnown`: another method's route has the path). */
export type Lookup<R> = { route: R; params: Record<string, string> } | { route: undefined; pathKnown: boolean };

/** The messages of a miss, in the words of the transport's clients. */
export interface Misses {
  /** not_found, for a path no route has (and, without `wrongMethod`, for a method its routes do not take). */
  notFound(method: string, path: string): string;
  /** method_not_allowed, for a method the path's routes do not take; absent, that is answered not_found. */
  wrongMethod?(method: string, path: string): string;
}

export class RouteTable<R extends TableRoute> {
  private readonly routes: { route: R; parts: string[] }[] = [];

  constructor(private readonly misses: Misses) {}

  add(route: R): this {
    this.routes.push({ route, parts: split(route.pattern) });
    return this;
  }

  /** The routes in the order they were added. */
  list(): R[] {
    return this.routes.map(({ route }) => route);
  }

  /** The first route of `method` whose pattern matches `path`; a parameter that does not decode matches nothing. */
  find(method: string, path: string): Lookup<R> {
    const parts = split(path);
    let pathKnown = false;
    for (const { route, parts: pattern } of this.routes) {
      const params = matchParts(pattern, parts);
      if (!params) continue;
      pathKnown = true;
      if (route.method === method) return { route, params };
    }
    return { route: undefined, pathKnown };
  }

  /** As `find`, a miss thrown as the transport answers it. */
  match(method: string, path: string): { route: R; params: Record<string, string> } {
    const found = this.find(method, path);
    if ('params' in found) return found;
    throw this.miss(method, path, found.pathKnown);
  }

  /** The error a miss is answered with. */
  miss(method: string, path: string, pathKnown: boolean): CoreError {
    if (pathKnown && this.misses.wrongMethod) return new CoreError('method_not_allowed', this.misses.wrongMethod(method, path));
    return new CoreError('not_found', this.misses.notFound(method, path));
  }
}

const split = (p: string): string[] => p.split('/').filter(Boolean);

function matchParts(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const v = parts[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(v);
      } catch {
        return undefined;
      }
    } else if (p !== v) return undefined;
  }
  return params;
}
