// How a route is declared in the console API contract, and the types the router and the renderer's client
// derive from a declaration: the path parameters from the pattern, the query names, the body and the result.
// Types only: this file and the family files beside it compile into nothing.

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One route of a family: what the client sends (query, body) and what a 2xx answer carries (result).
 * Path parameters are not declared: `:name` segments of the pattern are them.
 */
export interface RouteSpec {
  /** Query parameters by name, each optional (numbers travel as text). */
  query?: object;
  /** The JSON body; absent when the route takes none. */
  body?: unknown;
  /** The body of a 2xx answer: JSON, `string` for a text route (YAML, PEM, HTML), `null` for 204. */
  result: unknown;
}

/** `':id' | ':set'` of `/api/v1/clusters/:id/backups/:set/verify` → `'id' | 'set'`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of a pattern, each a decoded string. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

export type QueryOf<S extends RouteSpec> = S extends { query: infer Q } ? Q : Record<never, never>;
export type BodyOf<S extends RouteSpec> = S extends { body: infer B } ? B : undefined;
export type ResultOf<S extends RouteSpec> = S['result'];
