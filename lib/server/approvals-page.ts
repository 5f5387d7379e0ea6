import 'server-only';
import { getSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { connectOptions } from '@/lib/operations/sign-in';
import { formatDecimal, sameAddress } from '@/lib/format';
import { approvalsQuerySchema, type Approval, type ApprovalsPage, type OperatorApproval } from '@/lib/interface/approvals';
import { zodToBadParameter } from '@/lib/interface/zod-errors';
import { getWalletApprovals } from '@/lib/operations/wallet-holdings';
import type { ErrorInfo } from '@/lib/view/error-copy';
import { safeText } from '@/lib/view/nft-media';
import { toErrorInfo } from './page';
import type { TokensView } from './tokens-page';

const MAX_UINT256 = 2n ** 256n - 1n;

/** One standing approval as the Approvals tab shows it: an ERC-20 allowance or an NFT operator. */
export interface ApprovalRowView {
  key: string;
  kind: 'erc20' | 'operator';
  token: { address: string; name: string | null; symbol: string | null; spam: boolean };
  spender: { address: string; label: string | null };
  /** The allowance in words ("Unlimited" for the largest uint256), null for an operator (all of the collection). */
  amount: string | null;
  /** The allowance in the token's smallest unit (tests compare it with the chain). */
  raw: string | null;
  /** What the spender can take now: the smaller of the allowance and the balance, in words. */
  atRisk: string | null;
  grantedAt: string | null;
  tx: string | null;
}

export interface ApprovalsData {
  block: string | null;
  rows: ApprovalRowView[];
  /** The signed-in person owns this wallet: each row may be revoked from here. */
  owner: boolean;
  /** The connect options (as the account menu has them), for the wallet that sends a revoke. */
  wallet: { devnet: boolean; chainIds: number[]; walletConnectProjectId?: string };
  truncated: boolean;
}

const MAX_PAGES = 5;

/** The wallet's standing approvals on the view's chain, or the error to show in their place. */
export async function loadApprovals(address: string, view: Pick<TokensView, 'chain'>): Promise<ApprovalsData | { error: ErrorInfo }> {
  try {
    const results: Approval[] = [];
    let first: ApprovalsPage | null = null;
    let cursor: string | undefined;
    let pages = 0;
    do {
      const parsed = approvalsQuerySchema.safeParse({ chain: view.chain ?? undefined, limit: '100', ...(cursor ? { cursor } : {}) });
      if (!parsed.success) throw zodToBadParameter(parsed.error);
      const page = await getWalletApprovals(address, parsed.data);
      first ??= page;
      results.push(...page.result);
      cursor = page.cursor ?? undefined;
    } while (cursor && ++pages < MAX_PAGES);
    const [session, { devnet, chainIds }] = await Promise.all([getSession(), connectOptions()]);
    const b = first?.block_number;
    const block = typeof b === 'string' || typeof b === 'number' ? String(b) : null;
    return {
      block,
      rows: approvalRows(results, first?.operator_approvals ?? []),
      owner: !!session && sameAddress(session.address, address),
      wallet: { devnet, chainIds, walletConnectProjectId: config().walletConnectProjectId },
      truncated: !!cursor,
    };
  } catch (e) {
    return { error: await toErrorInfo(e) };
  }
}

/** The tab's rows: the allowances, then the operators, each in the source's order. */
export function approvalRows(allowances: Approval[], operators: OperatorApproval[]): ApprovalRowView[] {
  return [...allowances.map(erc20Row), ...operators.map(operatorRow)];
}

function erc20Row(a: Approval, i: number): ApprovalRowView {
  const value = a.value === null ? null : BigInt(a.value);
  const unlimited = a.unlimited === true || value === MAX_UINT256;
  const balance = a.token.current_balance === null ? null : BigInt(a.token.current_balance);
  // At risk: the smaller of the allowance and the balance, in the words the source gave each.
  const atRisk =
    value === null || balance === null ? null : value <= balance ? (unlimited ? null : words(a.value_formatted, a.value)) : words(a.token.current_balance_formatted, a.token.current_balance);
  const symbol = safeText(a.token.symbol, 32);
  return {
    key: `erc20-${a.token.address}-${a.spender.address}-${i}`,
    kind: 'erc20',
    token: { address: a.token.address, name: safeText(a.token.name, 40), symbol, spam: a.token.possible_spam === true },
    spender: { address: a.spender.address, label: safeText(a.spender.address_label ?? a.spender.entity, 40) },
    amount: unlimited ? 'Unlimited' : words(a.value_formatted, a.value),
    raw: a.value,
    atRisk,
    grantedAt: a.block_timestamp,
    tx: a.transaction_hash,
  };
}

/** A value as the source formatted it, cut for reading as every amount is; else in the smallest unit. */
function words(formatted: string | null, raw: string | null): string | null {
  return formatted ? formatDecimal(formatted).text : raw;
}

function operatorRow(o: OperatorApproval, i: number): ApprovalRowView {
  return {
    key: `operator-${o.token.address}-${o.operator.address}-${i}`,
    kind: 'operator',
    token: { address: o.token.address, name: safeText(o.token.name, 40), symbol: safeText(o.token.symbol, 32), spam: o.token.possible_spam === true },
    spender: { address: o.operator.address, label: safeText(o.operator.address_label ?? o.operator.entity, 40) },
    amount: null,
    raw: null,
    atRisk: null,
    grantedAt: o.block_timestamp,
    tx: o.transaction_hash,
  };
}

export const approvalsPath = (address: string) => `/wallet/${address}/approvals`;
