// The agent's version: the repo's, so manager and agent built from one commit report the same.
import pkg from '../package.json';

export const AGENT_VERSION: string = pkg.version;
