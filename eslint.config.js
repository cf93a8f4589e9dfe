// Lint rules, including the dependency rule of the design: main/core and the wire contract never import
// electron, the renderer never imports main/, and the wire contract imports nothing from either side.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
/** Route files live in their domain's folder, known by their name. */
const ROUTE_FILES = ['main/core/**/routes.ts', 'main/core/**/*-routes.ts'];
// The agent gateway's route table (gateway/gateway-routes.ts) belongs to the gateway, not to the console API.
const API_LAYER = [...ROUTE_FILES, 'main/core/**/module.ts', 'main/core/module.ts', 'main/core/modules.ts', 'main/core/http/router.ts'];

// Each domain's tables (its SQL) by folder under main/core: only that folder builds and calls them; other code is
// handed what it needs by its module's build (each domain's module.ts; manager.ts runs them). Their row types travel freely.
const DOMAIN_TABLES = {
  accounts: ['accounts-tables', 'api-tokens-table', 'token-rows'],
  approvals: ['approvals-table'],
  bundle: ['mirror-tables'],
  clusters: ['clusters-table', 'cluster-access-tables'],
  commands: ['commands-tables'],
  drift: ['drift-tables'],
  hosts: ['hosts-tables', 'host-metrics-table'],
  keys: ['keys-tables'],
  lifecycle: ['lifecycle-tables'],
  reports: ['reports-table'],
  services: ['services-tables', 'service-backups-tables'],
  settings: ['settings-table'],
};
const tablesOutside = (own) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      patterns: Object.entries(DOMAIN_TABLES)
        .filter(([domain]) => domain !== own)
        .map(([domain, files]) => ({
          group: files.map((f) => `**/${domain}/${f}`),
          allowTypeImports: true,
          message: `The ${domain} tables are main/core/${domain}'s: take them (or its service) as a constructor dependency from the composition root.`,
        })),
    },
  ],
});

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Tests read parsed YAML and JSON loosely; product code may not.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['main/core/**', 'main/api/**', 'main/cli/**', 'agent/**'],
    rules: restrict([{ group: ['electron'], message: 'Only the Electron shell (main/index.ts) may import electron.' }]),
  },
  {
    // The core holds the domains and their routes; main/api assembles them for the transports, never the reverse.
    files: ['main/core/**'],
    rules: restrict([
      { group: ['electron'], message: 'Only the Electron shell (main/index.ts) may import electron.' },
      { group: ['**/main/api/**', '**/../api/**'], message: 'main/core imports nothing from main/api.' },
    ]),
  },
  {
    // The console API inside the core (the router, each domain's routes and module, the module list) sits above
    // the services, which the dependency-cruiser layers check without it: a service never reaches up into it.
    files: ['main/core/**'],
    // The composition root (manager.ts, domain-tables.ts) reads the module list for the Manager's and the tables' types.
    ignores: [...API_LAYER, 'main/core/manager.ts', 'main/core/domain-tables.ts'],
    rules: restrict([
      { group: ['electron'], message: 'Only the Electron shell (main/index.ts) may import electron.' },
      { group: ['**/main/api/**', '**/../api/**'], message: 'main/core imports nothing from main/api.' },
      {
        group: [
          './routes',
          '**/routes',
          '**/*-routes',
          '!./gateway-routes',
          './module',
          '**/module',
          '**/modules',
          '**/http/router',
          './router',
        ],
        message: 'A service never imports the console API (routes, modules, the router): they call it, not the reverse.',
      },
    ]),
  },
  {
    files: ['main/wire/**'],
    rules: restrict([
      { group: ['electron'], message: 'The wire contract is plain.' },
      { group: ['**/core/**', '**/api/**', '**/agent/**', '**/cli/**'], message: 'The wire contract imports nothing from either side.' },
    ]),
  },
  {
    // A thin API: the services of main/core own the store, its transactions, the audit rows and the events,
    // so that IPC, HTTPS and the CLI get the same side effects. A route reads the request and calls a service.
    // Routes live in their domain's folder, known by their file name.
    files: ['main/api/**', ...ROUTE_FILES],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='store']", message: 'Routes never touch the store: call a service of main/core.' },
        {
          selector: 'CallExpression[callee.property.name=/^(emit|tx)$/]',
          message: 'Events and transactions belong to the service that makes the change, not to the route.',
        },
      ],
    },
  },
  {
    // The portable contract (every route's schemas and views, the error table, the event map): main, preload and
    // the renderer import it, so it holds zod, types and pure functions; it names what travels, never a store row.
    files: ['main/contract/**'],
    rules: restrict([
      {
        group: ['electron', 'node:*', '**/core/**', '**/api/**', '**/headless/**', '**/cli/**', '**/agent/**'],
        message: 'The portable contract imports only zod and main/wire.',
      },
    ]),
  },
  {
    files: ['renderer/**'],
    rules: restrict([
      { group: ['electron', 'node:*'], message: 'The renderer has no Node and no Electron.' },
      { group: ['**/main/**'], message: 'The renderer sees only what preload/ exports.' },
    ]),
  },
  {
    files: ['agent/**'],
    rules: restrict([
      { group: ['electron'], message: 'The agent is plain Node.' },
      {
        group: ['**/main/core/**', '**/main/api/**', '**/main/cli/**'],
        message: 'The agent shares only the wire contract with the manager.',
      },
    ]),
  },
  {
    files: ['main/**'],
    ignores: ['main/core/manager.ts', 'main/core/domain-tables.ts'],
    rules: tablesOutside(null),
  },
  ...Object.keys(DOMAIN_TABLES).map((domain) => ({ files: [`main/core/${domain}/**`], rules: tablesOutside(domain) })),
);
