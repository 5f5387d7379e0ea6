import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layering rules of eslint.config.mjs (docs/architecture.md) hold without anyone remembering them:
 * each case is code someone might write, linted as if it were at `filePath`, and the rules it must
 * break (line:rule), or none.
 */
let eslint: ESLint;
// The first lint loads the parser and plugins (seconds on a busy machine): pay it here, so no test's
// time limit depends on whether the shuffled order ran it first.
beforeAll(async () => {
  eslint = new ESLint({ cwd: process.cwd() });
  await eslint.lintText('export const a = 1;\n', { filePath: 'lib/view/warm-up.ts' });
}, 60_000);

async function broken(filePath: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return r.messages.map((m) => `${m.line}:${m.ruleId}`);
}

describe('layer boundaries', () => {
  it.each([
    ['a page importing the source picker', 'app/x/page.tsx', "import { sources } from '@/lib/sources';\nexport const a = sources;\n"],
    ['a component importing a source', 'components/x.tsx', "import { hostedRequest } from '@/lib/sources/hosted/client';\nexport const a = hostedRequest;\n"],
    ['a source importing another by alias', 'lib/sources/ledger-node/x.ts', "import { hostedRequest } from '@/lib/sources/hosted/client';\nexport const a = hostedRequest;\n"],
    ['a source importing another by path', 'lib/sources/ledger-node/x.ts', "import { hostedRequest } from '../hosted/client';\nexport const a = hostedRequest;\n"],
    ['a source importing the picker', 'lib/sources/hosted/x.ts', "import { sources } from '@/lib/sources';\nexport const a = sources;\n"],
    ['a source importing an operation', 'lib/sources/evm-node/x.ts', "import { getTransaction } from '@/lib/operations/transaction';\nexport const a = getTransaction;\n"],
    ['a source importing the sign-in rules', 'lib/sources/siwe-local/x.ts', "import { getSession } from '@/lib/auth/session';\nexport const a = getSession;\n"],
    ['a shared source module importing a page helper', 'lib/sources/breakers.ts', "import { toErrorInfo } from '@/lib/server/page';\nexport const a = toErrorInfo;\n"],
    ['an operation importing the sign-in rules', 'lib/operations/x.ts', "import { listSavedWallets } from '@/lib/auth/saved-wallets';\nexport const a = listSavedWallets;\n"],
    ['an operation importing the live streams\' hub', 'lib/operations/x.ts', "import { LiveHub } from '@/lib/live/hub';\nexport const a = LiveHub;\n"],
    ['an operation importing the API plumbing', 'lib/operations/x.ts', "import { api } from '@/lib/api/handler';\nexport const a = api;\n"],
    ['an operation importing a server action', 'lib/operations/x.ts', "import { signOutAction } from '@/lib/actions/auth';\nexport const a = signOutAction;\n"],
    ['an operation importing a source folder', 'lib/operations/x.ts', "import { nodeTx } from '@/lib/sources/evm-node/source';\nexport const a = nodeTx;\n"],
    ['lib importing a component', 'lib/view/x.ts', "import { CopyButton } from '@/components/ui/copy-button';\nexport const a = CopyButton;\n"],
    ['a component importing a server action from app/', 'components/auth/x.tsx', "import { signOutAction } from '@/app/actions/auth';\nexport const a = signOutAction;\n"],
    ['a component importing app/ by path', 'components/ledger/x.tsx', "import { previewMetadata } from '../../app/_og/previews';\nexport const a = previewMetadata;\n"],
    ['a server action importing app/', 'lib/actions/x.ts', "import { txPreview } from '@/app/_og/previews';\nexport const a = txPreview;\n"],
    ['a server action importing a component module', 'lib/actions/x.ts', "import { card } from '@/components/ui/card';\nexport const a = card;\n"],
    ['a server action importing a source', 'lib/actions/x.ts', "import { sources } from '@/lib/sources';\nexport const a = sources;\n"],
    ['auth importing the source picker', 'lib/auth/x.ts', "import { sources } from '@/lib/sources';\nexport const a = sources;\n"],
    ['a page helper importing a source folder', 'lib/server/x.ts', "import { nodeTx } from '@/lib/sources/evm-node/source';\nexport const a = nodeTx;\n"],
    ['the API plumbing importing a shared source module', 'lib/api/x.ts', "import { breakerSnapshots } from '@/lib/sources/breakers';\nexport const a = breakerSnapshots;\n"],
    ['the cache importing a source by path', 'lib/cache/x.ts', "import { hostedRequest } from '../sources/hosted/client';\nexport const a = hostedRequest;\n"],
    ['view logic importing the source interfaces', 'lib/view/x.ts', "import type { SourceKind } from '@/lib/sources/types';\nexport const a: SourceKind | null = null;\n"],
    ['a root lib module importing the picker by path', 'lib/x.ts', "import { sources } from './sources';\nexport const a = sources;\n"],
    ['the live hub importing the source picker', 'lib/live/x.ts', "import { sources } from '@/lib/sources';\nexport const a = sources;\n"],
    ['lib importing the devnet tooling', 'lib/devnet/x.ts', "import { createChain } from '@/devnet/ledger/chain.mjs';\nexport const a = createChain;\n"],
    ['a component importing the devnet tooling by path', 'components/home/x.tsx', "import { SECOND_ACCOUNTS } from '../../devnet/evm/second.mjs';\nexport const a = SECOND_ACCOUNTS;\n"],
    ['a page importing the devnet tooling', 'app/x/page.tsx', "import { startDevnets } from '@/devnet/evm/index.mjs';\nexport const a = startDevnets;\n"],
    ['lib importing a Next internal', 'lib/server/x.ts', "import { parseAndValidateFlightRouterState } from 'next/dist/server/app-render/parse-and-validate-flight-router-state';\nexport const a = parseAndValidateFlightRouterState;\n"],
    ['a component importing a Next internal', 'components/x.tsx', "import { x } from 'next/dist/client/components/router-reducer';\nexport const a = x;\n"],
    ['another edge module importing a Next internal', 'lib/edge/server.ts', "import { x } from 'next/dist/server/lib/router-server';\nexport const a = x;\n"],
    ['a component linking with next/link (viewport prefetch)', 'components/wallet/x.tsx', "import Link from 'next/link';\nexport const a = Link;\n"],
    ['a page linking with next/link (viewport prefetch)', 'app/x/page.tsx', "import NextLink, { useLinkStatus } from 'next/link';\nexport const a = [NextLink, useLinkStatus];\n"],
  ])('refuses %s', async (_what, filePath, code) => {
    expect(await broken(filePath, code)).toEqual(['1:no-restricted-imports']);
  });

  it('lets the front door read the router-state header with Next’s own parser', async () => {
    expect(
      await broken('lib/edge/request.ts', "import { parseAndValidateFlightRouterState } from 'next/dist/server/app-render/parse-and-validate-flight-router-state';\nexport const a = parseAndValidateFlightRouterState;\n"),
    ).toEqual([]);
  });

  it('lets the one link module wrap next/link, and everyone use it', async () => {
    expect(await broken('components/ui/link.tsx', "import NextLink from 'next/link';\nexport const a = NextLink;\n")).toEqual([]);
    expect(await broken('components/wallet/x.tsx', "import { Link, useLinkStatus } from '@/components/ui/link';\nexport const a = [Link, useLinkStatus];\n")).toEqual([]);
  });

  it('lets app code use the devnets’ data in lib/devnet/', async () => {
    expect(await broken('lib/server/x.ts', "import { devnetLabel } from '@/lib/devnet/scenario-labels';\nimport { showcaseVersions } from '../devnet/showcase';\nexport const a = [devnetLabel, showcaseVersions];\n")).toEqual([]);
  });

  it('lets a source use its own files and the shared modules, and an operation the picker', async () => {
    expect(
      await broken(
        'lib/sources/ledger-node/x.ts',
        "import { ledgerNodeBreaker } from '@/lib/sources/breakers';\nimport { beyondHead } from '../ledger-errors';\nimport type { LedgerBlockSource } from '@/lib/sources/types';\nimport { nodeLedger } from './index';\nexport const a: [unknown, unknown, LedgerBlockSource | null, unknown] = [ledgerNodeBreaker, beyondHead, null, nodeLedger];\n",
      ),
    ).toEqual([]);
    expect(
      await broken(
        'lib/operations/x.ts',
        "import { sources } from '@/lib/sources';\nimport { breakerSnapshots } from '@/lib/sources/breakers';\nexport const a = [sources, breakerSnapshots];\n",
      ),
    ).toEqual([]);
  });
});

describe('one chain rule', () => {
  it.each([
    ['a page', 'app/x/page.tsx', "import { resolveChain } from '@/lib/chains';\nexport const a = resolveChain;\n"],
    ['a page helper', 'lib/server/x.ts', "import { findChain } from '@/lib/chains';\nexport const a = findChain;\n"],
    ['another operation', 'lib/operations/x.ts', "import { resolveChain } from '@/lib/chains';\nexport const a = resolveChain;\n"],
    ['a source', 'lib/sources/hosted/x.ts', "import { findChain } from '@/lib/chains';\nexport const a = findChain;\n"],
    ['the source picker', 'lib/sources/index.ts', "import { resolveChain } from '@/lib/chains';\nexport const a = resolveChain;\n"],
    ['a server action', 'lib/actions/x.ts', "import { resolveChain } from '@/lib/chains';\nexport const a = resolveChain;\n"],
    ['a root lib module, by path', 'lib/x.ts', "import { findChain } from './chains';\nexport const a = findChain;\n"],
  ])('refuses %s resolving a chain itself', async (_what, filePath, code) => {
    expect(await broken(filePath, code)).toEqual(['1:no-restricted-imports']);
  });

  it('lets the chain rule and the configuration resolve chains, and anyone read the registry', async () => {
    const resolvers = "import { findChain, resolveChain } from '@/lib/chains';\nexport const a = [findChain, resolveChain];\n";
    expect(await broken('lib/operations/chains.ts', resolvers)).toEqual([]);
    expect(await broken('lib/config.ts', "import { findChain } from './chains';\nexport const a = findChain;\n")).toEqual([]);
    expect(await broken('app/x/page.tsx', "import { chainById, type Chain } from '@/lib/chains';\nimport { requestChain } from '@/lib/operations/chains';\nexport const a: [unknown, unknown, Chain | null] = [chainById, requestChain, null];\n")).toEqual([]);
  });
});

describe('thin pages', () => {
  it('refuses a page over 80 lines, and lets one of 80 stand', async () => {
    const page = (lines: number) => `${'export const a = 1;\n'.repeat(lines - 1)}export default function Page() {}\n`;
    expect(await broken('app/x/page.tsx', page(81))).toEqual(['81:max-lines']);
    expect(await broken('app/x/page.tsx', page(80))).toEqual([]);
    // Only pages: a loader or a view may be longer.
    expect(await broken('components/x/view.tsx', page(81))).toEqual([]);
  });
});

describe('one place each for the mode, the environment and logging', () => {
  it('refuses reading the mode, process.env and the console outside their modules', async () => {
    const code = [
      "import { config } from '@/lib/config';",
      "export const a = config().mode === 'hosted';",
      'const c = config();',
      'export const b = c.mode;',
      'export const d = process.env.X;',
      'console.log(a);',
      '',
    ].join('\n');
    expect(await broken('lib/operations/x.ts', code)).toEqual(['2:no-restricted-syntax', '4:no-restricted-syntax', '5:no-restricted-properties', '6:no-console']);
    expect(await broken('components/x.tsx', code)).toEqual(['2:no-restricted-syntax', '4:no-restricted-syntax', '5:no-restricted-properties', '6:no-console']);
  });

  it.each([
    ['held in any variable', 'const settings2 = config();\nexport const b = settings2.mode;\n'],
    ['read by a computed key', "export const b = config()['mode'];\n"],
    ['destructured', 'const { mode } = config();\nexport const b = mode;\n'],
    ['destructured under another name', 'const { mode: m } = config();\nexport const b = m;\n'],
    ['destructured from a variable', "const x = config();\nconst { 'mode': m } = x;\nexport const b = m;\n"],
  ])('refuses the mode %s', async (_what, body) => {
    const code = `import { config } from '@/lib/config';\n${body}`;
    const lines = body.split('\n');
    const line = lines.findIndex((l) => l.includes('mode')) + 2;
    for (const file of ['lib/operations/x.ts', 'lib/auth/x.ts', 'app/x/page.tsx', 'lib/sources/hosted/x.ts']) {
      expect(await broken(file, code)).toEqual([`${line}:no-restricted-syntax`]);
    }
  });

  it("reads the resync query's own mode=sync|async through resyncWaits, which lint lets stand", async () => {
    const code = "import { resyncWaits, type NftResyncQuery } from '@/lib/interface/nft-resync';\nexport const w = (q: NftResyncQuery) => resyncWaits(q);\n";
    expect(await broken('lib/sources/hosted/x.ts', code)).toEqual([]);
  });

  it('lets lib/config.ts read the environment and lib/sources/index.ts the mode', async () => {
    expect(await broken('lib/config.ts', 'export const d = process.env.X;\n')).toEqual([]);
    expect(await broken('lib/sources/index.ts', "import { config } from '@/lib/config';\nexport const a = config().mode === 'hosted';\n")).toEqual([]);
  });
});
