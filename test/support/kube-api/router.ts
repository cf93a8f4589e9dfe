// RequestInfo as the real RequestInfoFactory derives it from method, path and query: verb, group, resource, name...
import { selectedName } from './selectors.js';

export interface RequestInfo {
  resourceRequest: boolean;
  path: string;
  verb: string;
  apiPrefix: string;
  group: string;
  version: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** True when the verb was given by the legacy /watch/ path prefix or ?watch. */
  watch: boolean;
}

const METHOD_VERBS: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** strconv.ParseBool, as the query parameter decoder reads `watch`. */
export const parseBool = (v: string | null): boolean => v !== null && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);

export const parseRequestInfo = (method: string, path: string, query: URLSearchParams): RequestInfo => {
  const info: RequestInfo = {
    resourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    group: '',
    version: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    watch: false,
  };
  let parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return info;
  info.apiPrefix = parts[0] ?? '';
  parts = parts.slice(1);
  if (info.apiPrefix === 'apis') {
    if (parts.length < 3) return info;
    info.group = parts[0] ?? '';
    parts = parts.slice(1);
  }
  info.resourceRequest = true;
  info.version = parts[0] ?? '';
  parts = parts.slice(1);
  if (parts[0] === 'watch') {
    info.verb = 'watch';
    info.watch = true;
    parts = parts.slice(1);
  } else info.verb = METHOD_VERBS[method] ?? '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1] ?? '';
    if (parts.length > 2 && parts[2] !== 'status' && parts[2] !== 'finalize') parts = parts.slice(2);
  }
  info.resource = parts[0] ?? '';
  info.name = parts[1] ?? '';
  info.subresource = parts[2] ?? '';
  if (!info.name && info.verb === 'get') {
    info.watch = parseBool(query.get('watch'));
    info.verb = info.watch ? 'watch' : 'list';
  }
  if (!info.name && (info.verb === 'list' || info.verb === 'watch')) info.name = selectedName(query.get('fieldSelector'));
  if (!info.name && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
};
