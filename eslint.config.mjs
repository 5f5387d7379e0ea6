import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/*
 * The layering of docs/architecture.md, enforced: page -> operation -> source.
 *
 * - app/ and components/ never import lib/sources: they call lib/operations (or a server action).
 * - lib/operations reach sources only through the picker, `@/lib/sources` (plus the shared breaker
 *   modules and the interfaces in lib/sources/types.ts): never a source folder directly. No other
 *   folder of lib/ (auth, server, api, cache, view, ...) imports lib/sources at all.
 * - A source folder (lib/sources/<name>/) never imports another source folder; what several share sits
 *   beside them as a shared module: breaker.ts, breakers.ts, ledger-errors.ts, types.ts.
 * - lib/operations and lib/sources never import what sits above them: lib/auth, lib/server, lib/actions, lib/api.
 * - lib/ never imports app/ or components/; components/ never import app/ (server actions are in lib/actions/).
 * - A page (every page.tsx under app/) is at most 80 lines: its loader is in lib/server/, its view in components/<page>/.
 * - The mode (hosted or node) is read in one file, lib/sources/index.ts; process.env in one file,
 *   lib/config.ts; the console is not used: lib/log.ts (pino) is.
 * - app/, components/ and lib/ never import devnet/: what they show of the devnets is data in lib/devnet/.
 * - One chain rule: only lib/operations/chains.ts turns a request's `chain` into a Chain (and lib/config.ts
 *   reads the chains the configuration names): nobody else imports the registry's resolvers.
 * - Links come from components/ui/link.tsx (next/link without viewport prefetch), never next/link itself.
 * - Next's internals (next/dist/...) are loaded in one module, lib/edge/request.ts (the front door reads
 *   a header with Next's own reader); everything else uses Next's public API.
 * scripts/, tests/, devnet/, e2e/ and the tool configs at the root are exempt from the last four.
 */

const SOURCE_FOLDERS = ['evm-node', 'hosted', 'ledger-node', 'siwe-local', 'ens'];
const SHARED_SOURCE_MODULES = ['breaker', 'breakers', 'evm-nodes', 'ledger-errors', 'types'];
const shared = SHARED_SOURCE_MODULES.join('|');

const noUi = {
  group: ['@/app', '@/app/**', '@/components', '@/components/**'],
  message: 'lib/ is below the pages: it never imports app/ or components/.',
};

// The chain rule (lib/operations/chains.ts) is the only resolver of a request's chain; these would let a
// module resolve chains on its own, with its own idea of the default and of what is served.
const CHAIN_RESOLVERS = ['resolveChain', 'findChain'];
const chainRule = {
  name: '@/lib/chains',
  importNames: CHAIN_RESOLVERS,
  message: 'One chain rule: turn a request\'s chain into a Chain with requestChain() from @/lib/operations/chains (served chains: servedChains()).',
};
const relativeChainRule = (name) => ({ ...chainRule, name });

// The devnets (devnet/) are tooling that `npm run dev` and the tests run beside the app; what the app shows
// of them (the showcase, the scenario's public labels) is data in lib/devnet/, kept in step by unit tests.
const noDevnet = { regex: '^(@/devnet(/|$)|(\\.\\./)+devnet/(evm|ledger)(/|$))', message: 'The app never imports devnet/ (tooling beside it): put what it shows of the devnets in lib/devnet/ as data, checked by a unit test.' };

// Next's internals change without notice between versions: one module may lean on one, and says why.
const noNextInternals = { group: ['next/dist', 'next/dist/**'], message: 'Next internals (next/dist/...) are loaded only by lib/edge/request.ts: use Next\'s public API.' };

// Links come from one module, which turns off Next's viewport prefetch: every page here is rendered per
// request, so a prefetch only makes the server render route trees for links nobody may open.
const noNextLink = { name: 'next/link', message: 'Use { Link, useLinkStatus } from @/components/ui/link (no viewport prefetch: every page is dynamic).' };

const restrictImports = (...patterns) => ['error', { paths: [chainRule, relativeChainRule('./chains'), relativeChainRule('../chains'), noNextLink], patterns: [...patterns, noDevnet, noNextInternals] }];
// The one module that wraps next/link.
const restrictImportsExceptLink = (...patterns) => ['error', { paths: [chainRule, relativeChainRule('./chains'), relativeChainRule('../chains')], patterns: [...patterns, noDevnet, noNextInternals] }];
// The chain rule's own module, and the configuration that reads the chains it names.
const restrictImportsExceptChains = (...patterns) => ['error', { patterns: [...patterns, noDevnet, noNextInternals] }];

// What sits above the operations (sign-in rules, page loaders, actions, the API's plumbing, the live
// streams' hub and follower): the operations and the sources below them never import it, so no request
// runs back up.
const noUpperLib = {
  group: ['@/lib/auth', '@/lib/auth/**', '@/lib/server', '@/lib/server/**', '@/lib/actions', '@/lib/actions/**', '@/lib/api', '@/lib/api/**', '@/lib/live', '@/lib/live/**'],
  message: 'Operations and sources sit below lib/auth, lib/server, lib/actions, lib/api and lib/live: they never import them.',
};

const sourceFolderRules = SOURCE_FOLDERS.map((name) => ({
  files: [`lib/sources/${name}/**/*.{ts,tsx,mjs}`],
  rules: {
    'no-restricted-imports': restrictImports(
      {
        regex: `^@/lib/sources(/(?!(${name}|${shared})(/|$))|$)`,
        message: `A source never imports another source (nor the picker): lib/sources/${name} may use its own files and the shared ${SHARED_SOURCE_MODULES.map((m) => `lib/sources/${m}.ts`).join(', ')}.`,
      },
      {
        regex: `^\\.\\./(?!(${shared})$)`,
        message: 'A source never imports another source: import shared modules by @/lib/sources/<module>.',
      },
      { group: ['@/lib/operations', '@/lib/operations/**'], message: 'Sources are below the operations: they never import them.' },
      noUpperLib,
      noUi,
    ),
  },
}));

// The mode is read here only: everything else asks sources() or an operation. Matched by the property's
// name, whatever holds it (`config().mode`, `const x = config(); x.mode`, `x['mode']`, `const { mode } =
// x`), so no variable name gets past it. The one other `mode` in lib/ (the NFT resync query's
// mode=sync|async) is read in its own module, lib/interface/nft-resync.ts, through resyncWaits().
const modeMessage = 'Only lib/sources/index.ts reads the mode (config().mode): ask sources() (operations) or an operation (pages).';
const modeSelectors = [
  { selector: "MemberExpression[computed=false][property.name='mode']", message: modeMessage },
  { selector: "MemberExpression[computed=true][property.value='mode']", message: modeMessage },
  { selector: "ObjectPattern > Property[key.name='mode']", message: modeMessage },
  { selector: "ObjectPattern > Property[key.value='mode']", message: modeMessage },
];

// Below the pages, only lib/operations reach the sources (through the picker): lib/auth, lib/server,
// lib/api, lib/cache, lib/view, ... ask an operation.
const noSources = {
  group: ['@/lib/sources', '@/lib/sources/**', '**/lib/sources', '**/lib/sources/**', './sources', './sources/**', '../sources', '../sources/**'],
  message: 'Only lib/operations reach the sources (through @/lib/sources): call an operation.',
};

const noSourcesFromUi = {
  group: ['@/lib/sources', '@/lib/sources/**', '**/lib/sources', '**/lib/sources/**'],
  message: 'Pages and components never import a source: call lib/operations (or a server action in lib/actions/).',
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', 'out/**', '.data/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', 'devnet/evm/artifacts/**', '.stryker-tmp/**', 'reports/**']),
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Application code: app/, components/, lib/ and the request proxy.
  {
    files: ['app/**/*.{ts,tsx,mjs}', 'components/**/*.{ts,tsx,mjs}', 'lib/**/*.{ts,tsx,mjs}', 'proxy.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through lib/config.ts (validated once, documented in the README).' },
      ],
      'no-restricted-syntax': ['error', ...modeSelectors],
    },
  },
  {
    files: ['app/**/*.{ts,tsx,mjs}', 'components/**/*.{ts,tsx,mjs}'],
    rules: { 'no-restricted-imports': restrictImports(noSourcesFromUi) },
  },
  // Components are below the pages: what they call (a server action, a helper) lives in lib/.
  {
    files: ['components/**/*.{ts,tsx,mjs}'],
    rules: {
      'no-restricted-imports': restrictImports(noSourcesFromUi, {
        group: ['@/app', '@/app/**', '../**/app', '../**/app/**'],
        message: 'Components never import app/: a server action lives in lib/actions/, a page helper in lib/server/.',
      }),
    },
  },
  {
    files: ['components/ui/link.tsx'],
    rules: { 'no-restricted-imports': restrictImportsExceptLink(noSourcesFromUi, { group: ['@/app', '@/app/**'], message: 'Components never import app/.' }) },
  },
  // A page reads its params, calls a loader in lib/server/, and renders components/<page>/: it stays short.
  {
    files: ['app/**/page.tsx'],
    rules: { 'max-lines': ['error', { max: 80 }] },
  },
  {
    files: ['lib/**/*.{ts,tsx,mjs}'],
    rules: { 'no-restricted-imports': restrictImports(noUi, noSources) },
  },
  // Server actions adapt rules in lib/: they never reach into components/ (view logic is in lib/view/).
  {
    files: ['lib/actions/**/*.{ts,tsx,mjs}'],
    rules: {
      'no-restricted-imports': restrictImports(
        { group: ['@/lib/sources', '@/lib/sources/**', '**/lib/sources', '**/lib/sources/**', '../sources', '../sources/**'], message: 'Server actions never import a source: call lib/operations.' },
        { group: ['@/app', '@/app/**', '@/components', '@/components/**'], message: 'Server actions adapt rules in lib/ and never import app/ or components/ (pure view logic lives in lib/view/).' },
      ),
    },
  },
  // The picker and the modules the sources share (their folders are narrowed further below).
  {
    files: ['lib/sources/**/*.{ts,tsx,mjs}'],
    rules: { 'no-restricted-imports': restrictImports(noUpperLib, noUi) },
  },
  {
    files: ['lib/operations/**/*.{ts,tsx,mjs}'],
    rules: {
      'no-restricted-imports': restrictImports(
        {
          regex: `^@/lib/sources/(?!(${shared})$)`,
          message: 'Operations reach sources through the picker: import { sources } from @/lib/sources.',
        },
        noUpperLib,
        noUi,
      ),
    },
  },
  ...sourceFolderRules,
  // Tests and scripts are outside the rule; so are the chain rule itself and the configuration.
  {
    files: ['lib/operations/chains.ts'],
    rules: {
      'no-restricted-imports': restrictImportsExceptChains(
        { regex: `^@/lib/sources/(?!(${shared})$)`, message: 'Operations reach sources through the picker: import { sources } from @/lib/sources.' },
        noUpperLib,
        noUi,
      ),
    },
  },
  { files: ['lib/config.ts'], rules: { 'no-restricted-imports': restrictImportsExceptChains(noUi, noSources) } },
  // The front door's one reader of a Next internal (the router-state header's parser).
  {
    files: ['lib/edge/request.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [chainRule, relativeChainRule('../chains')], patterns: [noUi, noSources, noDevnet] }] },
  },
  // The one module that picks sources, and the one that reads the environment.
  { files: ['lib/sources/index.ts', 'lib/config.ts', 'lib/interface/nft-resync.ts'], rules: { 'no-restricted-syntax': 'off' } },
  { files: ['lib/config.ts'], rules: { 'no-restricted-properties': 'off' } },
]);
