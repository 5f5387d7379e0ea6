import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from 'viem';
import { formatDecimal } from '../lib/format';
import { rpcClient } from '../tests/support/foreign-chain';
import { THEMES, WIDTHS, expectAccessible, expectNoHorizontalScroll, keepScreenshot, rowHashes, setView } from './wallet-support';

/**
 * Wallet pages on the shared e2e server: `next start` in node mode on the seeded devnet. Wallets and
 * expected rows come from devnet/evm/scenario.json, the devnet's own record of every transaction.
 */

const SCENARIO = path.resolve('devnet/evm/scenario.json');

interface ScenarioTx {
  hash: string;
  blockNumber: number;
  transactionIndex: number;
  time: string;
  from: string;
  to: string | null;
  kind: string;
  status: number;
  nativeTransfers: { from: string; to: string; formatted: string; internal: boolean }[];
  tokenTransfers: { from: string; to: string; formatted: string; symbol: string }[];
  parties: string[];
}
interface Scenario {
  accounts: Record<string, { address: string; checksumAddress: string; txCount: number }>;
  contracts: Record<string, { address: string; kind: string }>;
  transactions: ScenarioTx[];
  final_nft_ownership: { contract: string; contractKey: string; tokenId: string; owner: string; amount: string }[];
}

test.describe.configure({ timeout: 120_000 });

const scenario = (): Scenario => JSON.parse(readFileSync(SCENARIO, 'utf8'));

/** What a row must show for a plain ETH or token transfer, relative to `wallet`. */
function expectedRow(tx: ScenarioTx, wallet: string) {
  const native = tx.nativeTransfers.filter((t) => !t.internal);
  const legs = [...native.map((t) => ({ ...t, symbol: 'ETH' })), ...tx.tokenTransfers].filter((t) => t.from === wallet || t.to === wallet);
  if (tx.status !== 1 || legs.length !== 1) return null;
  const leg = legs[0];
  if (leg.from === leg.to) return null;
  const out = leg.from === wallet;
  return {
    direction: out ? 'Sent' : 'Received',
    counterparty: out ? leg.to : leg.from,
    amount: `${out ? '−' : '+'}${formatDecimal(leg.formatted).text} ${leg.symbol}`,
  };
}

async function checkRows(page: Page, name: string) {
  const s = scenario();
  const wallet = s.accounts[name];
  await page.goto(`/wallet/${wallet.checksumAddress}?spam=true`);
  await expect(page.locator('li[data-tx-hash]').first()).toBeVisible();
  const shown = new Set((await rowHashes(page)).map((h) => h.toLowerCase()));
  let checked = 0;
  for (const tx of s.transactions) {
    if (!shown.has(tx.hash) || !['eth_send', 'erc20_transfer'].includes(tx.kind)) continue;
    const want = expectedRow(tx, wallet.address);
    if (!want) continue;
    const row = page.locator(`li[data-tx-hash="${tx.hash}" i]`);
    await expect(row.locator('[data-role="direction"]'), `${name} ${tx.hash}`).toHaveText(want.direction);
    await expect(row).toHaveAttribute('data-counterparty', want.counterparty);
    await expect(row.locator('[data-role="amount"]')).toContainText(want.amount);
    checked++;
  }
  expect(checked, `plain transfers of ${name} on the first page`).toBeGreaterThanOrEqual(3);
}

for (const name of ['dave', 'carol', 'erin']) {
  test(`${name}'s rows match the scenario: counterparty, amount, direction`, async ({ page }) => {
    await checkRows(page, name);
  });
}

/**
 * Transactions mined after the scenario's last block in which `address` sent, received, or is named by a
 * log topic (as a token transfer or approval names it), from the node's blocks and receipts.
 */
async function laterTransactionsOf(address: string, after: number): Promise<string[]> {
  const node = rpcClient(`http://127.0.0.1:${process.env.E2E_EVM_PORT}`);
  const a = address.toLowerCase();
  const topic = `0x${a.slice(2).padStart(64, '0')}`;
  const head = Number(await node.call('eth_blockNumber'));
  const out: string[] = [];
  for (let n = after + 1; n <= head; n++) {
    const b = (await node.call('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])) as { transactions: { hash: string; from: string; to: string | null }[] };
    for (const t of b.transactions) {
      const r = (await node.call('eth_getTransactionReceipt', [t.hash])) as { logs: { topics: string[] }[] };
      if (t.from.toLowerCase() === a || t.to?.toLowerCase() === a || r.logs.some((l) => l.topics.slice(1).includes(topic))) out.push(t.hash.toLowerCase());
    }
  }
  return out;
}

test('paging through alice (the 300+ transaction wallet) shows every transaction once; reload at page 3 returns page 3', async ({ page }) => {
  test.setTimeout(240_000);
  const s = scenario();
  const alice = s.accounts.alice;
  const expected = new Set(s.transactions.filter((t) => t.parties.includes(alice.address)).map((t) => t.hash));
  // Other specs on this devnet may have sent alice's transactions since the scenario (a revoke): the node says which.
  for (const h of await laterTransactionsOf(alice.address, Math.max(...s.transactions.map((t) => t.blockNumber)))) expected.add(h);
  await page.goto(`/wallet/${alice.checksumAddress}?spam=true`);
  const pages: string[][] = [];
  for (let p = 1; p < 100; p++) {
    await expect(page.getByRole('heading', { name: new RegExp(`page ${p}\\b`) })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    pages.push((await rowHashes(page)).map((h) => h.toLowerCase()));
    const older = page.getByRole('link', { name: 'Older →' });
    if ((await older.count()) === 0) break;
    await older.click();
  }
  const all = pages.flat();
  expect(new Set(all).size, 'no transaction twice').toBe(all.length);
  expect(new Set(all)).toEqual(expected);

  await page.goto(`/wallet/${alice.checksumAddress}?spam=true`);
  for (let p = 1; p < 3; p++) {
    await page.getByRole('link', { name: 'Older →' }).click();
    await expect(page.getByRole('heading', { name: new RegExp(`page ${p + 1}\\b`) })).toBeVisible();
  }
  await page.reload();
  await expect(page.getByRole('heading', { name: /page 3\b/ })).toBeVisible();
  expect((await rowHashes(page)).map((h) => h.toLowerCase())).toEqual(pages[2]);
});

test("bob's NFT grid shows the devnet collections' images and filters by contract", async ({ page }) => {
  const s = scenario();
  const bob = s.accounts.bob;
  const owned = s.final_nft_ownership.filter((n) => n.owner === bob.address);
  await page.goto(`/wallet/${bob.checksumAddress}/nfts`);
  const cards = page.locator('li[data-token-id]');
  // Never seen before, the wallet's NFTs are indexed in the background: the page says SYNCING and
  // refreshes itself every 4 s until they are all there; a loaded machine needs a few rounds.
  await expect(cards).toHaveCount(Math.min(owned.length, 24), { timeout: 30_000 });
  const lights = s.contracts.lights.address;
  const firstLight = page.locator(`li[data-contract="${lights}"] img`).first();
  await expect.poll(() => firstLight.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  expect(await firstLight.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);

  const items = s.contracts.items.address;
  await page.locator(`li[data-contract="${items}"]`).first().getByRole('link', { name: 'Only this collection' }).click();
  await expect(cards).toHaveCount(owned.filter((n) => n.contract === items).length);
  await expect(page.locator(`li[data-contract="${lights}"]`)).toHaveCount(0);
});

const RPC = `http://127.0.0.1:${process.env.E2E_EVM_PORT}`; // chosen by playwright.config.ts

test("curator's Far Lanterns show the names and images of their off-chain metadata, as the node and the gateway say", async ({ page }) => {
  const s = scenario();
  const curator = s.accounts.curator;
  const far = s.contracts.farLanterns.address;
  const gateway = `http://127.0.0.1:${process.env.E2E_NFT_PORT}`; // the devnet's IPFS gateway, chosen by playwright.config.ts
  // Expected: each token's URI read from the node, and what the gateway serves there.
  const abi = parseAbi(['function tokenURI(uint256) view returns (string)']);
  const want: { id: string; name: string | null; image: string | null }[] = [];
  for (const id of ['1', '2', '3', '4']) {
    const res = await fetch(RPC, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: far, data: encodeFunctionData({ abi, functionName: 'tokenURI', args: [BigInt(id)] }) }, 'latest'] }),
    });
    const uri = decodeFunctionResult({ abi, functionName: 'tokenURI', data: ((await res.json()) as { result: Hex }).result });
    const served = await fetch(`${gateway}/ipfs/${uri.replace(/^ipfs:\/\//, '')}`);
    const meta = served.ok ? ((await served.json()) as { name: string; image: string }) : null;
    want.push({ id, name: meta?.name ?? null, image: meta ? `${gateway}/ipfs/${meta.image.replace(/^ipfs:\/\//, '')}` : null });
  }
  expect(want.filter((w) => w.name).length).toBe(3);

  await page.goto(`/wallet/${curator.checksumAddress}/nfts`);
  // The metadata is fetched in the background after the first visit (and listings are kept 30 s): reload
  // until the names show, as a person would.
  const names = page.locator(`li[data-contract="${far}"] [data-role="nft-name"]`);
  await expect
    .poll(
      async () => {
        await page.reload();
        return names.allTextContents();
      },
      { timeout: 100_000, intervals: [2_000] },
    )
    .toEqual(want.map((w) => w.name ?? `Far Lanterns #${w.id}`));
  for (const w of want) {
    const card = page.locator(`li[data-contract="${far}"][data-token-id="${w.id}"]`);
    if (w.image) {
      const img = card.locator('img[data-role="nft-image"]');
      await expect(img).toHaveAttribute('src', w.image);
      await expect(img).toHaveAttribute('alt', w.name!);
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    } else {
      await expect(card.locator('[data-role="nft-fallback"]')).toHaveText(`Far Lanterns #${w.id}`);
      await expect(card.locator('img')).toHaveCount(0);
    }
  }
});

async function blockTime(hash: string): Promise<number> {
  const call = async <T,>(method: string, params: unknown[]) =>
    ((await (await fetch(RPC, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result: T }).result;
  const tx = await call<{ blockNumber: string }>('eth_getTransactionByHash', [hash]);
  return Number((await call<{ timestamp: string }>('eth_getBlockByNumber', [tx.blockNumber, false])).timestamp);
}

test('toolbar: a date range includes its to-date’s own transactions (whole UTC days), exactly the node’s', async ({ page }) => {
  const dave = scenario().accounts.dave;
  await page.goto(`/wallet/${dave.checksumAddress}?spam=true`);
  await expect(page.locator('li[data-tx-hash]').first()).toBeVisible();
  const all = await rowHashes(page);
  expect(all.length).toBeLessThan(25); // one page: every transaction of the wallet is here
  const times = new Map(await Promise.all(all.map(async (h) => [h.toLowerCase(), await blockTime(h)] as const)));
  const day = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
  const days = [...new Set([...times.values()].map(day))].sort();
  expect(days.length).toBeGreaterThanOrEqual(4);
  const [fromDay, toDay] = [days[1], days[Math.floor(days.length / 2)]];
  const from = Date.parse(`${fromDay}T00:00:00Z`) / 1000;
  const to = Date.parse(`${toDay}T00:00:00Z`) / 1000 + 86_399;
  const want = [...times].filter(([, t]) => t >= from && t <= to).map(([h]) => h).sort();
  // The to-date's own transactions are after its first instant: a range ending there would drop them.
  expect([...times.values()].filter((t) => day(t) === toDay && t > to - 86_399).length).toBeGreaterThan(0);

  await page.getByText('Date or block range').click();
  const form = page.getByRole('form', { name: 'Date or block range' });
  await form.getByLabel('From date (UTC)').fill(fromDay);
  await form.getByLabel('To date (UTC)').fill(toDay);
  await form.getByRole('button', { name: 'Apply range' }).click();
  await expect(page).toHaveURL(new RegExp(`to_date=${toDay}`));
  await expect.poll(async () => (await rowHashes(page)).map((h) => h.toLowerCase()).sort()).toEqual(want);
});

test('Download CSV carries the page’s filters (oldest first, a block range, spam shown): every row the node’s, in order', async ({ page }) => {
  const s = scenario();
  const alice = s.accounts.alice;
  const mine = s.transactions
    .filter((t) => t.parties.includes(alice.address))
    .sort((a, b) => a.blockNumber - b.blockNumber || a.transactionIndex - b.transactionIndex);
  // Over 100 rows: the download streams more than one page of the history.
  const [from, to] = [mine[40]!.blockNumber, mine[160]!.blockNumber];
  const want = mine.filter((t) => t.blockNumber >= from && t.blockNumber <= to);
  expect(want).toHaveLength(121);

  await page.goto(`/wallet/${alice.checksumAddress}`);
  await expect(page.locator('li[data-tx-hash]').first()).toBeVisible();
  await page.getByLabel('Order').selectOption('asc');
  await page.getByLabel('Show possible spam').check();
  await page.getByText('Date or block range').click();
  const form = page.getByRole('form', { name: 'Date or block range' });
  await form.getByLabel('From block').fill(String(from));
  await form.getByLabel('To block').fill(String(to));
  await form.getByRole('button', { name: 'Apply range' }).click();
  await expect(page).toHaveURL(new RegExp(`to_block=${to}`));
  await expect.poll(async () => (await rowHashes(page))[0]?.toLowerCase()).toBe(want[0]!.hash);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`lantern-${alice.checksumAddress}-devnet.csv`);
  const lines = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'time_utc,date_utc,hash,block,status,category,summary,direction,counterparty,counterparty_label,sent,received,fee,fee_currency,method,possible_spam,transaction_url',
  );
  // time, date, hash and block lead each row and never need quoting.
  const rows = lines.slice(1).map((l) => l.split(',').slice(0, 4));
  expect(rows).toEqual(want.map((t) => [t.time.replace('.000Z', 'Z'), t.time.slice(0, 10), t.hash, String(t.blockNumber)]));
});

test('an airdrop of the spam token is hidden from the history until spam is shown', async ({ page }) => {
  const s = scenario();
  const alice = s.accounts.alice;
  const airdrops = s.transactions.filter((t) => t.kind === 'airdrop' && t.parties.includes(alice.address)).map((t) => t.hash);
  expect(airdrops.length).toBeGreaterThan(0);
  // Oldest first reaches the early airdrops on the first pages.
  await page.goto(`/wallet/${alice.checksumAddress}?order=asc`);
  let hiddenSeen = false;
  for (let p = 1; p <= 4 && !hiddenSeen; p++) {
    const shown = (await rowHashes(page)).map((h) => h.toLowerCase());
    expect(shown.filter((h) => airdrops.includes(h))).toEqual([]);
    hiddenSeen = (await page.getByText(/possible spam transactions? hidden/).count()) > 0;
    if (!hiddenSeen) await page.getByRole('link', { name: 'Newer →' }).click();
  }
  expect(hiddenSeen).toBe(true);
  await page.getByRole('link', { name: 'Show spam' }).click();
  await expect.poll(async () => (await rowHashes(page)).some((h) => airdrops.includes(h.toLowerCase()))).toBe(true);
});

for (const theme of THEMES) {
  for (const width of WIDTHS) {
    test(`devnet wallet pages at ${width}px, ${theme}: no sideways scroll, axe passes`, async ({ page }, testInfo) => {
      const s = scenario();
      await setView(page, width, theme);
      const pages = [
        { name: 'alice-history', path: `/wallet/${s.accounts.alice.checksumAddress}`, ready: page.locator('li[data-tx-hash]').first() },
        { name: 'bob-nfts', path: `/wallet/${s.accounts.bob.checksumAddress}/nfts`, ready: page.locator('li[data-token-id]').first() },
        { name: 'mallory-empty', path: `/wallet/${s.accounts.mallory.checksumAddress}`, ready: page.getByText('No transactions on') },
      ];
      for (const p of pages) {
        await page.goto(p.path);
        await expect(p.ready).toBeVisible();
        await expectNoHorizontalScroll(page);
        await expectAccessible(page);
        await keepScreenshot(page, testInfo, `devnet-${p.name}-${width}-${theme}`);
      }
    });
  }
}

test('the devnet scenario’s names: alice heads her wallet, her rows name the pool and the people she pays, her swap’s page names both', async ({ page }) => {
  const s = scenario();
  const alice = s.accounts.alice;
  const pool = s.contracts.pool.address;
  const names = new Map([...Object.entries(s.accounts).map(([n, a]) => [a.address, n] as const), [pool, 'the pool']]);
  await page.goto(`/wallet/${alice.checksumAddress}`);
  await expect(page.getByTestId('wallet-label')).toContainText('alice');
  await expect(page.locator('li[data-tx-hash]').first()).toBeVisible();
  // Every row whose counterparty is a person of the scenario or the pool shows that name, not an address.
  const rows = await page.locator('li[data-tx-hash]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-counterparty'), e.querySelector('[data-role="counterparty"]')?.textContent ?? '']));
  const named = rows.filter(([cp]) => names.has(cp ?? ''));
  expect(named.length).toBeGreaterThanOrEqual(3);
  for (const [cp, text] of named) expect(text, cp!).toContain(names.get(cp!));
  expect(named.some(([cp]) => cp === pool)).toBe(true);

  const swap = s.transactions.find((t) => t.kind === 'swap' && t.from === alice.address)!;
  await page.goto(`/tx/${swap.hash}?chain=devnet`);
  await expect(page.getByTestId('tx-from')).toHaveText(`alice (${alice.address})`);
  await expect(page.getByTestId('tx-to')).toHaveText(`the pool (${pool})`);
});

test('an NFT image below the fold is not given up on while it waits off screen: 20 s later it still loads when scrolled to', async ({ page }) => {
  const s = scenario();
  const bob = s.accounts.bob;
  const owned = s.final_nft_ownership.filter((n) => n.owner === bob.address);
  // One card per row: most of bob's cards are far below the fold, where Chromium defers lazy images.
  await page.setViewportSize({ width: 375, height: 640 });
  await page.goto(`/wallet/${bob.checksumAddress}/nfts`);
  const cards = page.locator('li[data-token-id]');
  await expect(cards).toHaveCount(Math.min(owned.length, 24), { timeout: 30_000 });
  // Every one of bob's NFTs has an image (an on-chain data: URI); the old 15 s timer failed those off screen.
  await page.waitForTimeout(20_000);
  await expect(page.locator('[data-role="nft-fallback"]')).toHaveCount(0);
  const last = cards.last().locator('img[data-role="nft-image"]');
  await last.scrollIntoViewIfNeeded();
  await expect.poll(() => last.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
});

test('a never-seen wallet’s NFTs tab: its loading state at once on click, then its cards, never a “No NFTs” frame between', async ({ page }, info) => {
  const s = scenario();
  const heidi = s.accounts.heidi; // no other spec opens her NFTs: under `node` her index starts with this click
  const owned = s.final_nft_ownership.filter((n) => n.owner === heidi.address);
  // What the person sees, as it happens: the click, the first sign of loading (the tab's own mark, the
  // grid's skeleton) or card, any "No NFTs".
  await page.addInitScript(() => {
    const w = window as unknown as { sawNoNfts?: boolean; clickAt?: number; loadingAt?: number };
    addEventListener('click', () => (w.clickAt ??= performance.now()), true);
    new MutationObserver(() => {
      // (The tab's mark is an attribute change.)
      if (document.body?.innerText.includes('No NFTs')) w.sawNoNfts = true;
      if (w.loadingAt === undefined && document.querySelector('[data-pending="true"], [aria-label="Loading NFTs"], li[data-token-id]')) w.loadingAt = performance.now();
    }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['data-pending'] });
  });
  await page.goto(`/wallet/${heidi.checksumAddress}`);
  await expect(page.locator('li[data-tx-hash]').first()).toBeVisible();
  const cards = page.locator('li[data-token-id]');
  const clicked = Date.now();
  await page.getByRole('navigation', { name: 'Wallet views' }).getByRole('link', { name: 'NFTs' }).click();
  await expect(cards).toHaveCount(owned.length, { timeout: 15_000 });
  const cardsMs = Date.now() - clicked;
  const seen = await page.evaluate(() => {
    const w = window as unknown as { sawNoNfts?: boolean; clickAt?: number; loadingAt?: number };
    // The page's own answer to the click: the requests for the NFTs page made after it (the router's fetch).
    const answers = performance
      .getEntriesByType('resource')
      .filter((e): e is PerformanceResourceTiming => e.name.includes('/nfts') && e.startTime >= (w.clickAt ?? Infinity));
    return { sawNoNfts: w.sawNoNfts ?? false, clickAt: w.clickAt, loadingAt: w.loadingAt, answeredAt: Math.max(...answers.map((e) => e.responseStart)) };
  });
  info.annotations.push({ type: 'timing', description: `loading shown ${Math.round(seen.loadingAt! - seen.clickAt!)} ms after the click, the server began answering after ${Math.round(seen.answeredAt - seen.clickAt!)} ms, cards ${cardsMs} ms` });
  // Feedback before the server has even begun to answer: the tab's loading state is in the browser already.
  expect(seen.loadingAt, 'the loading state or the cards showed').toBeDefined();
  expect(seen.loadingAt!, 'the tab answers the click before the server does').toBeLessThan(seen.answeredAt);
  expect(seen.sawNoNfts, 'a “No NFTs” frame showed').toBe(false);
});
