// `navin-manager ca rotate|status`: starts a rotation of the manager CA (the running manager's gateway and its
// schedule take it on from the store) and shows its progress: the state, the agents at each stage and those it waits for.
import type { CaRotationView } from '../../contract/ca-rotation';
import { openManager } from '../../core/manager';
import { dataDirOption } from '../data-dir';
import { say } from '../output';
import { UsageError, type Command } from '../usage';

/** The progress as lines: the state, the count per stage, then one line per agent, the offline ones marked. */
export function rotationLines(r: CaRotationView): string[] {
  const s = r.stages;
  return [
    `rotation ${r.id}: ${r.state} (started ${r.started_at} by ${r.started_by}${r.finished_at ? `, done ${r.finished_at}` : ''})`,
    `agents: ${s.pending} pending, ${s['trusts-both']} trusting both CAs, ${s.renewed} renewed, ${s['trusts-new']} trusting the new CA alone`,
    ...(r.waiting_for.length > 0 ? [`waiting for: ${r.waiting_for.join(', ')}`] : []),
    ...r.agents.map((a) => `  ${a.offline ? 'OFFLINE ' : ''}${a.name}  ${a.stage}  last seen ${a.last_seen ?? 'never'}`),
  ];
}

export const caCommand: Command = {
  name: 'ca',
  usage: `navin-manager ca rotate|status [--json] [--data-dir D]

rotate  starts a rotation of the manager CA: a new CA trusted beside the old one by the gateway and every agent,
        then issuing the gateway's and the agents' certificates, then alone once every agent holds one of its
        certificates. The running manager carries it on; an agent offline holds it in its stage.
status  the rotation under way (else the last one): its state, the agents at each stage, those it waits for.

  --json  the rotation as GET /api/v1/ca/rotation gives it`,
  options: { json: { type: 'boolean' }, 'data-dir': { type: 'string' } },
  positionals: true,
  run(args) {
    const [action, ...rest] = args.positionals;
    if ((action !== 'rotate' && action !== 'status') || rest.length > 0) throw new UsageError('expected: navin-manager ca rotate|status');
    const manager = openManager({ dataDir: dataDirOption(args.values['data-dir']), mode: 'headless' });
    try {
      const rotation = action === 'rotate' ? manager.caRotation.start('cli') : manager.caRotation.progress();
      if (args.values.json) process.stdout.write(`${JSON.stringify({ rotation }, null, 2)}\n`);
      else if (!rotation) say('the manager CA was never rotated (navin-manager ca rotate)');
      else for (const line of rotationLines(rotation)) process.stdout.write(`${line}\n`);
      return 0;
    } finally {
      manager.close();
    }
  },
};
