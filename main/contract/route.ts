// How a route is declared in the console API contract, and the types the router and the renderer's client
// derive from a declaration: the path parameters from the pattern, the query names, the body and the result.
// A family is declared schema first, as zod schemas whose types are their `z.infer`: the router parses the body,
// query and path parameters with them before the handler.
import type { z } from './zod';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One route of a family: what a 2xx answer carries (result) and the schemas it comes from (`SpecOf` adds what the
 * client sends, query and body). Path parameters are not declared: `:name` segments of the pattern are them.
 */
export interface RouteSpec {
  /** The body of a 2xx answer: JSON, `string` for a text route (YAML, PEM, HTML), `null` for 204. */
  result: unknown;
  /** The schemas its types come from, which the router applies at run time. */
  schemas: RouteSchemas;
}

/** The schemas of one route: what the client sends is their input, what the handler gets their output. */
export interface RouteSchemas {
  params?: z.ZodType<Record<string, unknown>, Record<string, string>>;
  /** A URL carries text; the console's client writes numbers too, which it turns into text. */
  query?: z.ZodType<Record<string, unknown>, Record<string, string | number | undefined>>;
  body?: z.ZodType;
  /** A 2xx answer: a JSON document, `z.string()` for a text route, `z.null()` for 204. */
  result: z.ZodType;
  /** The status of that answer where it is 201 or 202 (the handler's `ok(…, 201)`); 200, or 204 for `z.null()`. */
  status?: 201 | 202;
  /** A text route's media type (the handler's `text(…, type)`); `text/plain` when none is said. */
  media?: string;
}

/** The RouteSpec that a route's schemas stand for. */
export type SpecOf<S extends RouteSchemas> = { result: z.output<S['result']>; schemas: S } & (S extends {
  body: infer B extends z.ZodType;
}
  ? { body: z.input<B> }
  : unknown) &
  (S extends { query: infer Q extends z.ZodType } ? { query: z.input<Q> } : unknown);

/** A family declared schema first (`{ 'METHOD /pattern': { body, result, … } }`) as the contract's route types. */
export type RoutesOf<T extends Record<string, RouteSchemas>> = { [K in keyof T]: SpecOf<T[K]> };

/** `':id' | ':set'` of `/api/v1/clusters/:id/backups/:set/verify` → `'id' | 'set'`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of a pattern, each a decoded string. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

export type ResultOf<S extends RouteSpec> = S['result'];
