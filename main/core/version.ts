// The product version, from package.json: the manager, the CLI and the agent built from one commit agree.
import pkg from '../../package.json';

export const VERSION: string = pkg.version;
