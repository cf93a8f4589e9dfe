// The manager CA's rotation (after hosts, whose commands it sends): its tables, the state machine the manager CA
// follows (keys/ca.ts reads the rotation's step from it), its routes and its migration.
import type { Manager } from '../manager';
import { serviceDeps } from '../module';
import type { BuiltBefore } from '../modules';
import { CaRotation } from './ca-rotation';
import { caRotationMigrations } from './migrations';
import { caRotationRoutes } from './routes';
import { CaRotationTables } from './ca-rotation-tables';

function build(m: BuiltBefore<'ca-rotation'>) {
  const rotation = new CaRotation({
    ...serviceDeps(m, 'caRotations', 'commands', 'hosts', 'clusters', 'keys'),
    protector: m.protector,
    ca: m.ca,
    send: {
      cluster: (clusterId, args, actor, record) => void m.commands.issueCaTrust(clusterId, args, actor, record),
      host: (hostId, args, actor, record) => void m.hostCommands.issueCaTrust(hostId, args, actor, record),
    },
  });
  rotation.run();
  return { caRotation: rotation };
}

function close(m: Manager): void {
  m.caRotation.close();
}

export const caRotationModule = {
  name: 'ca-rotation',
  tables: { caRotations: CaRotationTables },
  build,
  close,
  routes: caRotationRoutes,
  migrations: caRotationMigrations,
} as const;
