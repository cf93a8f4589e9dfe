// The dependency rules of main/core that eslint cannot see: its folders form layers, never a loop, so that a
// lower folder (store, checks, kubernetes) can be read, tested and changed without the ones built on it.
// Run by `npm run lint`.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-folder-cycle',
      comment:
        'A folder of main/core imports (perhaps through others) a folder that imports it back. Move what both need into a lower folder (checks/ for what checks share) or pass it in.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^main/core/' },
      to: { path: '^main/core/', circular: true },
    },
    {
      name: 'core-composition-root',
      comment:
        'Only the transports and the CLI know the Manager: a service of main/core declares the few dependencies it needs as its own interface and is passed them.',
      severity: 'error',
      from: { path: '^main/core/[^/]+/' },
      to: { path: '^main/core/manager\\.ts$' },
    },
    {
      name: 'core-base-files',
      comment:
        "The files directly in main/core (errors, clock, events, listeners, version) sit below every folder of the core; only the composition root (manager.ts, and domain-tables.ts, which assembles the tables each module builds on the store's database) imports the folders.",
      severity: 'error',
      from: { path: '^main/core/[^/]+\\.ts$', pathNot: '^main/core/(manager|domain-tables)\\.ts$' },
      to: { path: '^main/core/[^/]+/' },
    },
  ],
  options: {
    includeOnly: '^main/core/',
    // A domain's tables file (its SQL and row types) imports only store/, other tables files, the contract and the
    // wire: a layer below every folder, as store/ was when it held them all. A folder that reads another's rows
    // (a service taking a host record) does not make the two folders one layer.
    // The console API inside the core (the router, each domain's routes and module, the module list) sits above
    // every folder, as the transports do: a handler gets the Manager and may call any domain's service through it.
    // Its files are kept thin by eslint, and no service imports them (eslint too).
    exclude: {
      path: [
        '^main/core/(?!http/)[a-z-]+/([a-z-]+-tables?|token-rows)\\.ts$',
        '^main/core/(modules?\\.ts|http/router\\.ts|[^/]+/(module|routes|(?!gateway-)[^/]+-routes)\\.ts)$',
      ],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
