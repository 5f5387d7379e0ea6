import 'server-only';
import { encodeFunctionData, erc20Abi, formatUnits, parseAbi, type Address } from 'viem';
import type { Chain } from '@/lib/chains';
import { badParameter } from '@/lib/errors';
import type { Approval, ApprovalsPage, ApprovalsQuery, OperatorApproval } from '@/lib/interface/approvals';
import { queryBinding, readCursor, signCursor } from './cursor';
import { multicall } from './multicall';
import { assertChain } from './node-seam';
import { tokenFactsMany } from './tokens';
import { blockTimestamp } from './tx-facts';
import { keptLogs, walletLogs, type WalletLog } from './wallet-logs';

/**
 * Who may spend a wallet's tokens now. Every (token, spender) pair its ERC-20 Approval logs name is
 * confirmed with `allowance(owner, spender)` and every (collection, operator) pair its ApprovalForAll logs
 * name with `isApprovedForAll(owner, operator)`, all in one multicall at one block (the logs alone are not
 * enough: OpenZeppelin's transferFrom lowers an allowance without an Approval log, and a token may change
 * allowances any way it likes). Zero allowances and revoked operators are dropped. Each row carries the
 * wallet's last Approval log of the pair (block, time, transaction) and the token's balance, of which the
 * allowance puts at risk the smaller of the two.
 */

const DEFAULT_LIMIT = 100;
const approvalAbi = parseAbi(['function isApprovedForAll(address owner, address operator) view returns (bool)']);

const unlabelled = (address: string) => ({ address, address_label: null, entity: null, entity_logo: null });

/** The newest log of each (token, other) pair among `logs` (oldest first). */
function latestPerPair(logs: WalletLog[]): WalletLog[] {
  const last = new Map<string, WalletLog>();
  for (const l of logs) last.set(`${l.token}:${l.other}`, l);
  return [...last.values()];
}

export interface CurrentApprovals {
  block: number;
  erc20: Approval[];
  operators: OperatorApproval[];
}

/** The wallet's standing approvals at `block` (the head when not given), newest first. */
export async function readApprovals(chain: Chain, address: string, atBlock?: number): Promise<CurrentApprovals> {
  await assertChain(chain);
  const owner = address.toLowerCase();
  const at = await walletLogs(chain, owner, { early: ['approval', 'operator'] });
  const block = Math.min(atBlock ?? at.head, at.head);
  const logs = [...(await keptLogs(chain, owner, at, ['approval', 'operator'], Math.min(block, at.final))), ...at.tail.filter((l) => (l.kind === 'approval' || l.kind === 'operator') && l.block <= block)];
  const allowances = latestPerPair(logs.filter((l) => l.kind === 'approval'));
  const operators = latestPerPair(logs.filter((l) => l.kind === 'operator'));
  const tokens = [...new Set(allowances.map((l) => l.token))];
  const calls = [
    ...allowances.map((l) => ({ target: l.token as Address, callData: encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [owner as Address, l.other as Address] }) })),
    ...operators.map((l) => ({ target: l.token as Address, callData: encodeFunctionData({ abi: approvalAbi, functionName: 'isApprovedForAll', args: [owner as Address, l.other as Address] }) })),
    ...tokens.map((t) => ({ target: t as Address, callData: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] }) })),
  ];
  const [outcomes, facts] = await Promise.all([
    multicall(chain, calls, block),
    tokenFactsMany(chain.id, [
      ...tokens.map((address) => ({ address, hint: 'erc20' as const })),
      ...[...new Set(operators.map((l) => l.token))].map((address) => ({ address, hint: 'unknown' as const })),
    ]),
  ]);
  const word = (i: number): bigint | null => {
    const o = outcomes[i]!;
    return o.ok && o.data.length >= 66 ? BigInt(o.data.slice(0, 66)) : null;
  };
  const balances = new Map(tokens.map((t, i) => [t, word(allowances.length + operators.length + i)]));
  const times = new Map<number, string>();
  const timeOf = async (n: number) => {
    if (!times.has(n)) times.set(n, new Date((await blockTimestamp(chain.id, n)) * 1000).toISOString());
    return times.get(n)!;
  };

  const erc20: Approval[] = [];
  for (const [i, l] of allowances.entries()) {
    const value = word(i);
    if (value === null || value === 0n) continue; // revoked, used up, or not confirmable (allowance reverted)
    const f = facts.get(l.token);
    const decimals = f?.decimals ?? null;
    const balance = balances.get(l.token) ?? null;
    erc20.push({
      block_number: String(l.block),
      block_timestamp: await timeOf(l.block),
      transaction_hash: l.tx,
      value: value.toString(),
      value_formatted: decimals === null ? null : formatUnits(value, decimals),
      token: {
        address: l.token,
        address_label: null,
        name: f?.name ?? null,
        symbol: f?.symbol ?? null,
        logo: null,
        possible_spam: f?.possibleSpam ?? false,
        verified_contract: false,
        current_balance: balance === null ? null : balance.toString(),
        current_balance_formatted: balance === null || decimals === null ? null : formatUnits(balance, decimals),
        usd_price: null,
        usd_at_risk: null,
      },
      spender: unlabelled(l.other!),
      // Lantern's own: what the allowance can take now, the smaller of it and the balance.
      at_risk: balance === null ? null : (value < balance ? value : balance).toString(),
      unlimited: value === 2n ** 256n - 1n,
    });
  }
  const ops: OperatorApproval[] = [];
  for (const [j, l] of operators.entries()) {
    if (word(allowances.length + j) !== 1n) continue; // revoked, or isApprovedForAll says no
    const f = facts.get(l.token);
    ops.push({
      block_number: String(l.block),
      block_timestamp: await timeOf(l.block),
      transaction_hash: l.tx,
      token: {
        address: l.token,
        name: f?.name ?? null,
        symbol: f?.symbol ?? null,
        contract_type: f?.kind === 'erc721' ? 'ERC721' : f?.kind === 'erc1155' ? 'ERC1155' : null,
        possible_spam: f?.possibleSpam ?? false,
      },
      operator: unlabelled(l.other!),
    });
  }
  const newest = (a: { block_number: string | null; transaction_hash: string | null }, b: typeof a) =>
    Number(b.block_number) - Number(a.block_number) || (a.transaction_hash ?? '').localeCompare(b.transaction_hash ?? '');
  erc20.sort(newest);
  ops.sort(newest);
  return { block, erc20, operators: ops };
}

/**
 * GET /wallets/{address}/approvals: the standing ERC-20 allowances in pages, and on the first page the
 * standing operator approvals. The cursor holds the block of the first page, so every page reads it.
 */
export async function nodeApprovals(address: string, chain: Chain, q: ApprovalsQuery): Promise<ApprovalsPage> {
  const owner = address.toLowerCase();
  const limit = q.limit ?? DEFAULT_LIMIT;
  const binding = queryBinding(['approvals', chain.id, owner, limit]);
  let after: { block: number; offset: number; page: number } | undefined;
  if (q.cursor) {
    const [block, offset, page] = readCursor(q.cursor, binding);
    if (![block, offset, page].every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) throw badParameter('cursor', 'cursor: it cannot be read');
    after = { block: block as number, offset: offset as number, page: page as number };
  }
  const current = await readApprovals(chain, owner, after?.block);
  const offset = after?.offset ?? 0;
  const page = after?.page ?? 1;
  return {
    page,
    page_size: limit,
    cursor: offset + limit < current.erc20.length ? signCursor(binding, [current.block, offset + limit, page + 1]) : null,
    result: current.erc20.slice(offset, offset + limit),
    ...(after ? {} : { operator_approvals: current.operators }),
    block_number: String(current.block),
  };
}

