import { erc20Abi, keccak256, pad, parseAbi, toHex, type Address, type Hex, type PublicClient } from 'viem';
import { expect } from 'vitest';
import { approvalsPageSchema, type Approval, type OperatorApproval } from '../../lib/interface/approvals';
import { tokenBalancesPageSchema, type TokenBalance } from '../../lib/interface/tokens';

/**
 * What a wallet holds and who may spend it, as the node says (eth_getLogs to find the candidates,
 * eth_call at one block to read them), never from Lantern; and Lantern's answers, every page, to compare.
 * Used by the every-devnet-chain oracle and the foreign OpenZeppelin chain.
 */

export const TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'));
export const APPROVAL = keccak256(toHex('Approval(address,address,uint256)'));
export const APPROVAL_FOR_ALL = keccak256(toHex('ApprovalForAll(address,address,bool)'));
const ZERO = `0x${'0'.repeat(40)}`;
const operatorAbi = parseAbi(['function isApprovedForAll(address owner, address operator) view returns (bool)']);

export const topicOf = (a: string) => pad(a as Hex, { size: 32 }).toLowerCase() as Hex;
export const addrOf = (t: Hex) => `0x${t.slice(26)}`.toLowerCase();

export interface Log {
  address: string;
  topics: Hex[];
}

export const logs = (client: PublicClient, topics: (Hex | Hex[] | null)[], to: bigint) =>
  client.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: toHex(to), topics }] }) as Promise<Log[]>;

/** Every address an ERC-20 Transfer (3 topics) names, or that gave an ERC-20 Approval or an ApprovalForAll. */
export async function partiesOfLogs(client: PublicClient): Promise<string[]> {
  const head = await client.getBlockNumber();
  const transfers = (await logs(client, [TRANSFER], head)).filter((l) => l.topics.length === 3);
  const owners = (await logs(client, [[APPROVAL, APPROVAL_FOR_ALL]], head)).filter((l) => l.topics.length === 3);
  const all = [...transfers.flatMap((l) => [addrOf(l.topics[1]!), addrOf(l.topics[2]!)]), ...owners.map((l) => addrOf(l.topics[1]!))];
  return [...new Set(all)].filter((a) => a !== ZERO).sort();
}

/** balanceOf at `block` of every ERC-20 whose Transfer logs name the wallet: nonzero ones, and those that revert. */
export async function expectedHoldings(client: PublicClient, wallet: string, block: bigint) {
  const w = topicOf(wallet);
  const found = [...(await logs(client, [TRANSFER, w], block)), ...(await logs(client, [TRANSFER, null, w], block))].filter((l) => l.topics.length === 3);
  const held = new Map<string, string>();
  const reverted: string[] = [];
  for (const token of new Set(found.map((l) => l.address.toLowerCase()))) {
    try {
      const b = await client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet as Address], blockNumber: block });
      if (b > 0n) held.set(token, b.toString());
    } catch {
      reverted.push(token);
    }
  }
  return { held, reverted: reverted.sort() };
}

/**
 * For every (token, spender) an ERC-20 Approval log (3 topics) names the wallet owner of, allowance() at
 * `block` (zero ones, and those that cannot be read, dropped); for every (collection, operator) of its
 * ApprovalForAll logs, isApprovedForAll() (false ones dropped). Keys `token:other`, lower case.
 */
export async function expectedApprovals(client: PublicClient, wallet: string, block: bigint) {
  const w = topicOf(wallet);
  const pairs = (topic: Hex) =>
    logs(client, [topic, w], block).then((ls) => [...new Set(ls.filter((l) => l.topics.length === 3).map((l) => `${l.address.toLowerCase()}:${addrOf(l.topics[2]!)}`))]);
  const allowances = new Map<string, string>();
  for (const pair of await pairs(APPROVAL)) {
    const [token, spender] = pair.split(':') as [Address, Address];
    try {
      const v = await client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [wallet as Address, spender], blockNumber: block });
      if (v > 0n) allowances.set(pair, v.toString());
    } catch {
      // not confirmable: Lantern drops it too
    }
  }
  const operators: string[] = [];
  for (const pair of await pairs(APPROVAL_FOR_ALL)) {
    const [token, operator] = pair.split(':') as [Address, Address];
    try {
      if (await client.readContract({ address: token, abi: operatorAbi, functionName: 'isApprovedForAll', args: [wallet as Address, operator], blockNumber: block })) operators.push(pair);
    } catch {
      // not confirmable
    }
  }
  return { allowances, operators: operators.sort() };
}

const query = (chain: string | undefined, extra: string) => `?${chain ? `chain=${chain}&` : ''}${extra}`;

/** Every page of Lantern's tokens answer: one block for all of them. */
export async function lanternTokens(url: string, wallet: string, chain?: string) {
  const pages = [];
  let cursor = '';
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${url}/api/v2.2/wallets/${wallet}/tokens${query(chain, `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)}`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const page = tokenBalancesPageSchema.parse(body);
    pages.push(page);
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  for (const p of pages) expect(p.block_number).toBe(pages[0]!.block_number);
  return { block: BigInt(pages[0]!.block_number!), result: pages.flatMap((p) => p.result) as TokenBalance[], unreadable: pages[0]!.unreadable ?? [] };
}

/** Every page of Lantern's approvals answer (small pages, so the cursor is exercised): one block for all. */
export async function lanternApprovals(url: string, wallet: string, chain?: string) {
  const erc20: Approval[] = [];
  let operators: OperatorApproval[] = [];
  let block: string | undefined;
  let cursor = '';
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${url}/api/v2.2/wallets/${wallet}/approvals${query(chain, `limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)}`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const page = approvalsPageSchema.parse(body);
    const at = String((body as { block_number?: unknown }).block_number);
    expect(at).toMatch(/^\d+$/);
    if (block === undefined) {
      block = at;
      operators = page.operator_approvals ?? [];
    }
    expect(at, 'every page reads the first page’s block').toBe(block);
    erc20.push(...page.result);
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  return {
    block: BigInt(block!),
    allowances: new Map(erc20.map((a) => [`${a.token.address.toLowerCase()}:${a.spender.address.toLowerCase()}`, String(a.value)])),
    rows: erc20.length,
    operators: operators.map((o) => `${o.token.address.toLowerCase()}:${o.operator.address.toLowerCase()}`).sort(),
  };
}

/** Lantern's tokens and approvals of `wallet` equal the node's at the answer's block. Returns what was held and approved, so a caller can insist the chain had some. */
export async function expectMatchesNode(client: PublicClient, url: string, wallet: string, label: string, chain?: string) {
  const page = await lanternTokens(url, wallet, chain);
  const want = await expectedHoldings(client, wallet, page.block);
  const [native, ...tokens] = page.result;
  expect(native!.native_token, `${label} ${wallet}`).toBe(true);
  expect(native!.balance, `${label} ${wallet} native`).toBe((await client.getBalance({ address: wallet as Address, blockNumber: page.block })).toString());
  expect(new Map(tokens.map((t) => [t.token_address.toLowerCase(), t.balance])), `${label} ${wallet} tokens at ${page.block}`).toEqual(want.held);
  expect(page.unreadable.map((u) => u.token_address.toLowerCase()).sort(), `${label} ${wallet} unreadable`).toEqual(want.reverted);

  const a = await lanternApprovals(url, wallet, chain);
  const approved = await expectedApprovals(client, wallet, a.block);
  expect(a.rows, `${label} ${wallet}: one row per pair`).toBe(a.allowances.size);
  expect(a.allowances, `${label} ${wallet} allowances at ${a.block}`).toEqual(approved.allowances);
  expect(a.operators, `${label} ${wallet} operators at ${a.block}`).toEqual(approved.operators);
  return { held: want.held.size, allowances: approved.allowances.size, operators: approved.operators.length };
}
