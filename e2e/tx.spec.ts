import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { decodeEventLog, decodeFunctionData, decodeFunctionResult, encodeFunctionData, parseAbi, type Abi, type AbiEvent, type Hex } from 'viem';
import { formatUnits } from '../lib/format';
import { devnetLabel } from '../lib/devnet/scenario-labels';
import { rpcClient } from '../tests/support/rpc';
import { WIDTHS, expectAccessible, expectNoHorizontalScroll, keepScreenshot, setView } from './wallet-support';

/**
 * The transaction page, /tx/{hash}?chain=devnet, for one transaction of each scenario kind, at 375 and
 * 1280 px, in node mode and (project `hosted`) through a hosted Lantern. What the page shows is compared
 * with what the devnet node says over JSON-RPC (the transaction, its receipt, its block, callTracer,
 * token contracts' symbol and decimals), decoded here with viem: never with Lantern's own answers.
 */
const RPC = `http://127.0.0.1:${process.env.E2E_EVM_PORT}`; // chosen by playwright.config.ts
interface ScenarioTx { hash: string; kind: string; from: string; note: string; parties: string[] }
const transactions: ScenarioTx[] = JSON.parse(readFileSync(path.resolve('devnet/evm/scenario.json'), 'utf8')).transactions;
const KINDS: [string, string, RegExp?][] = [
  ['send', 'eth_send'],
  ['token send', 'erc20_transfer'],
  ['swap', 'swap'],
  ['NFT batch', 'erc1155_batch'],
  ['contract creation', 'deploy'],
  ['reverted', 'revert'],
  ['internal fan-out', 'multisend'],
  // A Safe-style smart wallet's `execute(target, value, data)` moving USDC: the wallet's call, the token's.
  ['smart wallet execute', 'wallet_execute', /sends USDC/],
];

/** Of the scenario's transactions of `kind`, the one with the fewest later transactions of its sender: its row is on the first page. */
function pick(kind: string, note?: RegExp): ScenarioTx {
  const later = (t: ScenarioTx) => transactions.slice(transactions.indexOf(t) + 1).filter((u) => u.parties.includes(t.from)).length;
  return transactions.filter((t) => t.kind === kind && (!note || note.test(t.note))).sort((a, b) => later(a) - later(b))[0];
}

// The token standards' own interfaces (ERC-20, ERC-721, ERC-1155), plus the common mint and burn.
const EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
]);
const CALLS = parseAbi([
  'function transfer(address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function mint(address to, uint256 value)',
  'function burn(uint256 value)',
]);
// The devnet contracts' own ABIs (their compiled artifacts), by address: what each call and log is.
const scenario = JSON.parse(readFileSync(path.resolve('devnet/evm/scenario.json'), 'utf8')) as { contracts: Record<string, { address: string; artifact: string }> };
const ARTIFACT_ABI = new Map(
  Object.values(scenario.contracts).map((c) => [c.address.toLowerCase(), JSON.parse(readFileSync(path.resolve(`devnet/evm/artifacts/${c.artifact}.json`), 'utf8')).abi as Abi]),
);

/**
 * A log as its emitting contract's own ABI reads it, parameters in the ABI's order: `Name(a: 1, b: 2)`;
 * each value as `shown` puts it (plainly unless told).
 */
function logText(log: Log, shown: (name: string, type: string, value: unknown) => string = (_name, _type, value) => show(value)): string | null {
  const abi = ARTIFACT_ABI.get(log.address.toLowerCase());
  if (!abi) return null;
  try {
    const e = decodeEventLog({ abi, topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true });
    const item = abi.find((i) => i.type === 'event' && i.name === e.eventName && i.inputs.filter((p) => p.indexed).length === log.topics.length - 1) as AbiEvent;
    const args = e.args as unknown as Record<string, unknown>;
    return `${e.eventName}(${item.inputs.map((p) => `${p.name}: ${shown(p.name!, p.type, args[p.name!])}`).join(', ')})`;
  } catch {
    return null;
  }
}

const VIEWS = parseAbi(['function symbol() view returns (string)', 'function name() view returns (string)', 'function decimals() view returns (uint8)']);

const rpc = rpcClient(RPC).call;

async function view(token: string, fn: 'symbol' | 'name' | 'decimals'): Promise<string | number | null> {
  const abi = VIEWS.filter((f) => f.name === fn) as unknown as Abi;
  try {
    const out = await rpc<Hex>('eth_call', [{ to: token, data: encodeFunctionData({ abi, functionName: fn }) }, 'latest']);
    return decodeFunctionResult({ abi, functionName: fn, data: out }) as string | number;
  } catch {
    return null;
  }
}

interface Trace { type: string; from: string; to?: string; value?: string; input?: Hex; error?: string; calls?: Trace[] }
interface Log { address: string; topics: Hex[]; data: Hex }

const show = (v: unknown): string => (Array.isArray(v) ? `[${v.map(show).join(',')}]` : String(v));
const utc = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** A log decoded by the first standard event whose topics and data it fits exactly, or null. */
function decodeLog(log: Log): { name: string; args: Record<string, unknown>; inputs: readonly { name?: string }[] } | null {
  for (const item of EVENTS) {
    if (item.inputs.filter((i) => (i as { indexed?: boolean }).indexed).length !== log.topics.length - 1) continue;
    try {
      const e = decodeEventLog({ abi: [item as AbiEvent], topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true });
      return { name: e.eventName, args: e.args as Record<string, unknown>, inputs: item.inputs };
    } catch {
      // not this one
    }
  }
  return null;
}

/** A call's method as the called contract's own ABI names it, else the token standards', else its selector. */
function methodName(to: string | null, input: Hex): string {
  if (input === '0x') return 'Transfer';
  try {
    return decodeFunctionData({ abi: (to && ARTIFACT_ABI.get(to.toLowerCase())) || CALLS, data: input }).functionName;
  } catch {
    return input.slice(0, 10);
  }
}

/** The call's arguments by the called contract's own ABI: [name, type, value]. */
function callArgs(to: string, input: Hex): [string, string, unknown][] | null {
  const abi = ARTIFACT_ABI.get(to.toLowerCase()) ?? CALLS;
  try {
    const d = decodeFunctionData({ abi, data: input });
    const item = abi.find((i) => i.type === 'function' && i.name === d.functionName && i.inputs.length === (d.args ?? []).length) as { inputs: readonly { name?: string; type: string }[] };
    return item.inputs.map((p, i) => [p.name ?? '', p.type, (d.args ?? [])[i]]);
  } catch {
    return null;
  }
}

const AMOUNT = /amount|^_?(value|wad)$/i;

/** One argument as the page should show it: a party by its scenario name, a known ERC-20's amount in its units, else the value. */
function shownValue(contract: string, name: string, type: string, value: unknown, want: Expected, tokenFacts: boolean): string {
  if (type === 'address') return party(String(value).toLowerCase());
  const facts = tokenFacts && want.erc20.has(contract.toLowerCase()) ? want.tokens.get(contract.toLowerCase()) : undefined;
  if (facts?.decimals != null && /^uint/.test(type) && AMOUNT.test(name)) return `${formatUnits(String(value), facts.decimals).text} ${facts.symbol ?? facts.name}`;
  return show(value);
}

/** A log's line as the page should show it: `Event(name: value, ...)` with the values shown as above. */
function shownLog(log: Log, want: Expected, tokenFacts: boolean): string | null {
  return logText(log, (name, type, value) => shownValue(log.address, name, type, value, want, tokenFacts));
}

/** Everything the page must show, read from the node. */
async function expected(hash: string) {
  const [tx, receipt, trace] = await Promise.all([
    rpc<{ from: string; to: string | null; value: Hex; blockNumber: Hex; input: Hex }>('eth_getTransactionByHash', [hash]),
    rpc<{ status: Hex; gasUsed: Hex; effectiveGasPrice: Hex; contractAddress: string | null; logs: Log[] }>('eth_getTransactionReceipt', [hash]),
    rpc<Trace>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]),
  ]);
  const block = await rpc<{ timestamp: Hex }>('eth_getBlockByNumber', [tx.blockNumber, false]);
  const ok = Number(receipt.status) === 1;

  // Calls below the top level, in order, with their depth; value moved by those that did not revert.
  const calls: [string, string, string | null, number][] = [];
  const callMethods: string[] = [];
  const internalMoves: [string, string, string][] = [];
  const walk = (t: Trace, depth: number, reverted: boolean) => {
    for (const c of t.calls ?? []) {
      const r = reverted || !!c.error;
      calls.push([c.type, c.from.toLowerCase(), c.to?.toLowerCase() ?? null, depth]);
      callMethods.push(/^CREATE/.test(c.type) ? 'Contract creation' : methodName(c.to ?? null, c.input ?? '0x'));
      if (!r && c.to && BigInt(c.value ?? '0x0') > 0n && c.type !== 'DELEGATECALL') internalMoves.push([c.from.toLowerCase(), c.to.toLowerCase(), BigInt(c.value!).toString()]);
      walk(c, depth + 1, r);
    }
  };
  walk(trace, 1, !!trace.error);
  const value = BigInt(tx.value).toString();
  const to = (tx.to ?? receipt.contractAddress)!.toLowerCase();
  const natives = ok ? [...(value !== '0' ? [[tx.from.toLowerCase(), to, value]] : []), ...internalMoves] : [];

  // Logs as the emitting contracts' own ABIs read them; token movements from the standard Transfer events among them.
  const logs = receipt.logs.map((l) => logText(l));
  const moves: { kind: string; token: string; from: string; to: string; amount: string; tokenId: string | null }[] = [];
  receipt.logs.forEach((l) => {
    const d = decodeLog(l);
    if (!d) return;
    const a = d.args as Record<string, string | bigint | bigint[]>;
    const base = { token: l.address.toLowerCase(), from: String(a.from).toLowerCase(), to: String(a.to).toLowerCase() };
    if (d.name === 'Transfer' && 'tokenId' in a) moves.push({ ...base, kind: 'erc721', amount: '1', tokenId: String(a.tokenId) });
    else if (d.name === 'Transfer') moves.push({ ...base, kind: 'erc20', amount: String(a.value), tokenId: null });
    else if (d.name === 'TransferSingle') moves.push({ ...base, kind: 'erc1155', amount: String(a.value), tokenId: String(a.id) });
    else if (d.name === 'TransferBatch') (a.ids as bigint[]).forEach((id, i) => moves.push({ ...base, kind: 'erc1155', amount: String((a.values as bigint[])[i]), tokenId: String(id) }));
  });
  // ERC-20s here (moved, or approved: an Approval with its amount not indexed): their amounts read in their units.
  const erc20 = new Set([...moves.filter((mv) => mv.kind === 'erc20').map((mv) => mv.token), ...receipt.logs.filter((l) => decodeLog(l)?.name === 'Approval' && l.topics.length === 3).map((l) => l.address.toLowerCase())]);
  const tokens = new Map<string, { symbol: string | null; name: string | null; decimals: number | null }>();
  for (const t of new Set([...moves.map((mv) => mv.token), ...erc20])) {
    const [symbol, name, decimals] = await Promise.all([view(t, 'symbol'), view(t, 'name'), view(t, 'decimals')]);
    tokens.set(t, { symbol: symbol as string | null, name: name as string | null, decimals: decimals === null ? null : Number(decimals) });
  }

  const method = tx.to ? methodName(tx.to, tx.input) : 'Contract creation';
  const args = tx.to ? callArgs(tx.to, tx.input) : null;
  const fee = (BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)).toString();
  return {
    status: String(Number(receipt.status)),
    block: String(Number(tx.blockNumber)),
    time: utc(Number(block.timestamp)),
    from: tx.from.toLowerCase(),
    to,
    value,
    fee,
    method,
    args,
    erc20,
    callMethods,
    input: tx.input,
    logs,
    rawLogs: receipt.logs,
    moves,
    tokens,
    natives,
    calls,
  };
}

type Expected = Awaited<ReturnType<typeof expected>>;

/** A party as the devnet's transaction page names it: the scenario's public label before the address (alice, the pool). */
function party(address: string): string {
  const label = devnetLabel(31337, address);
  return label ? `${label} (${address})` : address;
}

/** The text a transfer row shows for its amount and token: decimals and symbol where the page's source read them. */
function moveText(mv: Expected['moves'][number], want: Expected, tokenFacts: boolean): string {
  const facts = tokenFacts ? want.tokens.get(mv.token) : undefined;
  const name = facts?.symbol ?? facts?.name ?? mv.token;
  const id = mv.tokenId !== null ? ` #${mv.tokenId}` : '';
  if (mv.kind === 'erc20') return `${facts?.decimals == null ? mv.amount : formatUnits(mv.amount, facts.decimals).text} ${name}${id}`;
  if (mv.kind === 'erc1155') return `${mv.amount} × ${name}${id}`;
  return `${name}${id}`;
}

async function shownCalls(page: Page) {
  return page.locator('li[data-call]').evaluateAll((els) =>
    els.map((li) => {
      const links = [...li.querySelectorAll(':scope > a[data-address]')].map((a) => a.getAttribute('data-address'));
      return [li.querySelector(':scope > span')?.textContent ?? '', links[0] ?? null, links[1] ?? null, Number(li.getAttribute('data-call-depth'))];
    }),
  );
}

for (const width of WIDTHS) {
  for (const [label, kind, note] of KINDS) {
    test(`transaction page, ${label}, ${width}px: what the node says, axe clean`, async ({ page }, testInfo) => {
      const hash = pick(kind, note).hash;
      const want = await expected(hash);
      // Node mode reads token symbols and decimals from the chain; a hosted source gives none, so the
      // page shows raw amounts and token addresses there.
      const tokenFacts = testInfo.project.name !== 'hosted';
      await setView(page, width, 'light');
      await page.goto(`/tx/${hash}?chain=devnet`);

      await expect(page.getByTestId('tx-status')).toHaveAttribute('data-status', want.status);
      await expect(page.getByTestId('tx-status')).toHaveText(want.status === '1' ? 'Succeeded' : 'Failed (reverted)');
      await expect(page.getByTestId('tx-block')).toHaveText(want.block);
      await expect(page.getByTestId('tx-time')).toHaveText(want.time);
      for (const [id, address] of [['tx-from', want.from], ['tx-to', want.to]] as const) {
        await expect(page.getByTestId(id)).toHaveAttribute('data-address', address);
        await expect(page.getByTestId(id)).toHaveText(party(address));
        await expect(page.getByTestId(id)).toHaveAttribute('href', `/wallet/${address}?chain=devnet`);
      }
      await expect(page.getByTestId('tx-value')).toHaveAttribute('data-wei', want.value);
      await expect(page.getByTestId('tx-value')).toHaveText(`${formatUnits(want.value, 18).text} ETH`);
      await expect(page.getByTestId('tx-fee')).toHaveAttribute('data-wei', want.fee);
      await expect(page.getByTestId('tx-fee')).toHaveText(`${formatUnits(want.fee, 18).text} ETH`);
      await expect(page.getByTestId('tx-method')).toHaveText(want.method);
      // The method's arguments, named, each value shown as a receipt shows it and the raw value beside it.
      if (want.args && want.args.length > 0) {
        const shown = await page.getByTestId('tx-args').locator(':scope > li').evaluateAll((els) =>
          els.map((li) => [li.getAttribute('data-arg'), li.querySelector('[data-testid="tx-arg-value"]')?.textContent ?? '']),
        );
        expect(shown).toEqual(want.args.map(([name, type, value]) => [name, shownValue(want.to, name, type, value, want, tokenFacts)]));
        await expect(page.getByTestId('tx-method-raw')).toHaveText(`${want.method}(${want.args.map(([name, , value]) => `${name}: ${show(value)}`).join(', ')})`);
      }
      await expect(page.getByTestId('tx-input')).toHaveText(want.input);

      // Token movements: kind, token, parties, raw amount and id as the logs say; the text as the page's source knows the token.
      const moves = page.locator('[data-transfer="erc20"], [data-transfer="erc721"], [data-transfer="erc1155"]');
      await expect(moves).toHaveCount(want.moves.length);
      const shownMoves = await moves.evaluateAll((els) =>
        els.map((e) => ({
          kind: e.getAttribute('data-transfer'),
          token: e.getAttribute('data-token'),
          from: e.getAttribute('data-from'),
          to: e.getAttribute('data-to'),
          amount: e.getAttribute('data-amount'),
          tokenId: e.getAttribute('data-token-id'),
          text: e.textContent,
        })),
      );
      expect(shownMoves).toEqual(want.moves.map((mv) => ({ ...mv, text: `${moveText(mv, want, tokenFacts)} from ${party(mv.from)} to ${party(mv.to)}` })));

      // Native movements: the top-level value and the internal calls that moved value and did not revert.
      const natives = await page.locator('[data-transfer="native"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-from'), e.getAttribute('data-to'), e.getAttribute('data-wei')]));
      expect(natives).toEqual(want.natives);

      // Logs: each named as its contract's own ABI reads it, its emitter named, the raw values one click away.
      await expect(page.locator('[data-log]')).toHaveCount(want.logs.length);
      for (const [i, text] of want.logs.entries()) {
        const row = page.locator('[data-log]').nth(i);
        const log = want.rawLogs[i];
        await expect(row.getByTestId('log-contract')).toHaveText(party(log.address.toLowerCase()));
        if (text) {
          await expect(row.getByTestId('log-decoded')).toHaveText(shownLog(log, want, tokenFacts)!);
          await expect(row.getByTestId('log-raw-text')).toHaveText(text);
        } else await expect(row.getByTestId('log-unknown')).toHaveCount(1);
      }

      // Internal calls: every call below the top level, in order, at its depth, with its parties.
      expect(await shownCalls(page)).toEqual(want.calls);
      expect(await page.getByTestId('call-method').allTextContents()).toEqual(want.callMethods);
      if (want.calls.length > 0) await expect(page.getByTestId('tx-calls')).toHaveAttribute('data-nested', 'true');

      await expectNoHorizontalScroll(page);
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `tx-${kind}-${width}`);
    });
  }
}

test('an unknown hash is a 404 page that says so and what to try', async ({ page }) => {
  const unknown = `0x${'ab'.repeat(32)}`;
  const res = await page.goto(`/tx/${unknown}?chain=devnet`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transaction not found');
  await expect(page.getByTestId('tx-not-found-reason')).toContainText(`No transaction has the hash ${unknown} on Local devnet.`);
  await expect(page.getByRole('heading', { name: 'What you can do' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  await expectAccessible(page);
});

for (const [label, kind, note] of KINDS.filter(([, k]) => ['swap', 'wallet_execute', 'erc1155_batch', 'revert'].includes(k))) {
  test(`${label}: the history row and the transaction page agree on method, status and names`, async ({ page }) => {
    const t = pick(kind, note);
    const want = await expected(t.hash);
    await page.goto(`/wallet/${t.from}?chain=devnet`);
    const row = page.locator(`li[data-tx-hash="${t.hash}"]`);
    await row.getByRole('button', { name: /Show details of/ }).click();
    await expect(row.getByTestId('row-method')).toHaveText(want.method);
    await expect(row.getByTestId('row-status')).toHaveText(want.status === '1' ? 'Succeeded' : 'Failed (reverted)');
    // Wherever the row shows a scenario address, it shows the scenario's name for it.
    for (const address of await row.locator('[data-address]').evaluateAll((els) => els.map((e) => e.getAttribute('data-address')!))) {
      const name = devnetLabel(31337, address);
      if (name) await expect(row.locator(`[data-address="${address}"]`).first()).toContainText(name);
    }
    await row.getByTestId('tx-page-link').click();
    await expect(page.getByTestId('tx-method')).toHaveText(want.method);
    await expect(page.getByTestId('tx-status')).toHaveText(want.status === '1' ? 'Succeeded' : 'Failed (reverted)');
    await expect(page.getByTestId('tx-to')).toHaveText(party(want.to));
  });
}

test('a history row links to its transaction page', async ({ page }) => {
  await page.goto('/wallet/0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65?chain=devnet');
  const row = page.locator('li[data-tx-hash]').first();
  const hash = await row.getAttribute('data-tx-hash');
  await row.getByRole('button', { name: /Show details of/ }).click();
  const link = row.getByTestId('tx-page-link');
  await expect(link).toHaveAttribute('href', `/tx/${hash}?chain=devnet`);
  await link.click();
  await expect(page.getByTestId('tx-hash')).toHaveText(hash!);
});
