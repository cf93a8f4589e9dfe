// The managed namespace of the open cluster, as far as the console can know it (the API does not return it with
// the cluster): its last signed desired state names it, else this session's registration, else the default.
import { useClusterCommands, useClusterSetup } from '../../app/stores';
import { DEFAULT_NAMESPACE } from '../../../../preload/api';
import { commandNamespace } from '../commands/store';

/** The managed namespace of the cluster: as its last signed desired state names it, else as registered, else the default. */
export function useManagedNamespace(): { namespace: string; known: boolean } {
  const fromCommands = useClusterCommands((s) => {
    for (const c of s.items) {
      const ns = commandNamespace(c);
      if (ns) return ns;
    }
    return null;
  });
  const fromRegistration = useClusterSetup((s) => s.registration.result?.namespace ?? null);
  const ns = fromCommands ?? fromRegistration;
  return { namespace: ns ?? DEFAULT_NAMESPACE, known: ns !== null };
}
