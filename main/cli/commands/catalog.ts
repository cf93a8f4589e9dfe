// `navin-manager catalog check`: validates a folder of descriptors (or the shipped catalog) as the manager
// will, printing each problem as file: path (line): reason.
import { CatalogError, describeProblem } from '../../core/catalog/catalog-loader';
import { catalogOption } from '../catalog-option';
import { complain, say } from '../output';
import { UsageError, type Command } from '../usage';

export const catalogCommand: Command = {
  name: 'catalog',
  usage: `navin-manager catalog check [--catalog DIR]

Validates every descriptor (*.yaml) of DIR, or of the catalog shipped with this manager, against the
schema and the cross-checks. Exit 0 valid; 1 invalid, each problem printed as file: path (line): reason.`,
  options: { catalog: { type: 'string' } },
  positionals: true,
  run(args) {
    const [action, ...rest] = args.positionals;
    if (action !== 'check' || rest.length > 0) throw new UsageError('expected: navin-manager catalog check [--catalog DIR]');
    try {
      const { catalog, source } = catalogOption(args.values.catalog);
      for (const d of catalog.services) process.stdout.write(`${d.service}: ${d.versions.map((v) => v.version).join(', ')}\n`);
      say(`${source}: valid (${catalog.services.length} services, ${catalog.digest})`);
      return 0;
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      for (const p of error.problems) complain(describeProblem(p));
      complain(`catalog_invalid: ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}`);
      return 1;
    }
  },
};
