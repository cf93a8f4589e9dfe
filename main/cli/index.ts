// navin-manager: the manager's command line (the bin of the package).
import { complain } from './output';
import { EXIT_FAILURE } from './usage';
import { main } from './program';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    complain(String(error));
    process.exit(EXIT_FAILURE);
  },
);
