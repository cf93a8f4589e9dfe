// A deadline for one Kubernetes API call: client-node sets none, so an API server that accepts a request and
// never answers held the caller for ever (a lease never renewed again, a command queue stuck on its state).
import { Observable, type ConfigurationOptions, type ObservableMiddleware } from '@kubernetes/client-node';

/** Per-call options that abort the request after `ms`; the call then rejects (an AbortError). */
export function deadline(ms: number): ConfigurationOptions<ObservableMiddleware> {
  const middleware: ObservableMiddleware = {
    pre: (ctx) => {
      ctx.setSignal(AbortSignal.timeout(ms));
      return new Observable(Promise.resolve(ctx));
    },
    post: (res) => new Observable(Promise.resolve(res)),
  };
  return { middleware: [middleware], middlewareMergeStrategy: 'append' };
}
