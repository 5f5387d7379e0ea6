// The holder's part of the scenario: what a wallet holds now and who may spend it (issue 21). Last in
// time (days 201 to 203) with fixed hours and no PRNG draws, so every earlier transaction, block and draw
// is as it was before this part existed. scenario.mjs calls planHoldings from buildPlan.
import { encodeDeployData, encodeFunctionData, getContractAddress, maxUint256, parseEther, parseUnits } from 'viem';

/** The accounts of this part (dev indices beyond anvil's 20 funded ones: the deployer funds them). */
export const HOLDINGS_ACCOUNTS = {
  holder: { index: 21, role: 'Holds the odd tokens (rebasing, fee-on-transfer, bytes32, reverting) and gives, uses and revokes approvals' },
  issuer: { index: 22, role: 'Deploys and runs the odd tokens: mints them to holder, rebases rLNT, takes the transfer fee' },
  merchant: { index: 23, role: 'The spender holder approves: pulls part of an allowance (transferFrom), holds a Key by operator right' },
};

/** The odd tokens and the Keys collection, in issuer's deployment order (nonces 0 to 4). */
const ISSUED = [
  ['rlnt', 'RebasingToken', 'erc20', { name: 'Rebasing Lantern', symbol: 'rLNT', decimals: 18, rebasing: true }],
  ['tax', 'FeeToken', 'erc20', { name: 'Taxed Lantern', symbol: 'TAX', decimals: 18, feeOnTransfer: true }],
  ['olg', 'LegacyToken', 'erc20', { name: 'Old Lantern Gold', symbol: 'OLG', decimals: 18, legacy: true }],
  ['broken', 'BrokenToken', 'erc20', { name: 'Broken Balance', symbol: 'BROKEN', balanceReverts: true }],
  ['keys', 'Keys721', 'erc721', { name: 'Lantern Keys', symbol: 'KEY' }],
];

/** The contracts this part deploys, keyed as scenario.mjs keys contracts, with their addresses. */
export function holdingsContracts(issuer) {
  return Object.fromEntries(
    ISSUED.map(([key, artifact, kind, facts], i) => [
      key,
      { address: getContractAddress({ from: issuer, nonce: BigInt(i) }).toLowerCase(), artifact, kind, deployer: 'issuer', ...facts },
    ]),
  );
}

const T = (n) => parseUnits(String(n), 18);

/**
 * Adds this part's intents. `at(t, fn)` schedules a transaction; `tx(from, to, kind, note, opts)` builds
 * one; `A` names accounts, `C` contracts (both to addresses); `dayAt(d, hour)` is a fixed time.
 */
export function planHoldings({ at, tx, A, C, artifacts, dayAt }) {
  const call = (artifact, fn, args) => encodeFunctionData({ abi: artifacts[artifact].abi, functionName: fn, args });
  const t = (d, h, i = 0) => dayAt(d, h) + i * 60;

  // Day 201: the accounts are funded, issuer deploys and mints, deployer gives holder USDC and LNT.
  ['holder', 'issuer', 'merchant'].forEach((who, i) =>
    at(t(201, 8, i), () => tx('deployer', A[who], 'eth_send', `deployer funds ${who}`, { value: parseEther(who === 'merchant' ? '2' : '10'), gas: 21_000 })));
  ISSUED.forEach(([key, artifact], i) =>
    at(t(201, 9, i), () => tx('issuer', null, 'deploy', `issuer deploys ${artifact} (${key})`, {
      data: encodeDeployData({ abi: artifacts[artifact].abi, bytecode: artifacts[artifact].bytecode }), gas: 4_000_000,
    })));
  const mints = [['rlnt', 'RebasingToken', 1_000], ['tax', 'FeeToken', 10_000], ['olg', 'LegacyToken', 5_000], ['broken', 'BrokenToken', 777]];
  mints.forEach(([key, artifact, n], i) =>
    at(t(201, 10, i), () => tx('issuer', C[key], 'erc20_mint', `issuer mints ${n} ${key.toUpperCase()} to holder`, { data: call(artifact, 'mint', [A.holder, T(n)]), gas: 150_000 })));
  for (let k = 1; k <= 3; k++) {
    at(t(201, 10, 4 + k), () => tx('issuer', C.keys, 'nft_mint', `issuer mints Lantern Key #${k} to holder`, { data: call('Keys721', 'mint', [A.holder]), gas: 150_000 }));
  }
  at(t(201, 11, 0), () => tx('deployer', C.usdc, 'erc20_mint', 'mint USDC to holder', { data: call('Token', 'mint', [A.holder, parseUnits('5000', 6)]), gas: 90_000 }));
  at(t(201, 11, 1), () => tx('deployer', C.lnt, 'erc20_mint', 'mint LNT to holder', { data: call('Token', 'mint', [A.holder, T(50)]), gas: 90_000 }));

  // Approvals: unlimited (USDC to the pool), partly used later (TAX to merchant), revoked later (OLG to
  // merchant), and operator approvals of the Keys (merchant kept, issuer revoked later).
  const approvals = [
    [C.usdc, 'Token', 'approve', [C.pool, maxUint256], 'holder approves the pool for unlimited USDC'],
    [C.tax, 'FeeToken', 'approve', [A.merchant, T(1_000)], 'holder approves merchant for 1000 TAX'],
    [C.olg, 'LegacyToken', 'approve', [A.merchant, T(500)], 'holder approves merchant for 500 OLG (no return value)'],
    [C.keys, 'Keys721', 'setApprovalForAll', [A.merchant, true], 'holder makes merchant an operator of her Lantern Keys'],
    [C.keys, 'Keys721', 'setApprovalForAll', [A.issuer, true], 'holder makes issuer an operator of her Lantern Keys'],
  ];
  approvals.forEach(([to, artifact, fn, args, note], i) => at(t(201, 12, i), () => tx('holder', to, 'approve', note, { data: call(artifact, fn, args), gas: 80_000 })));

  // Holder spends: fee-on-transfer, no-return-value and reverting-balance tokens, a Key, and all her LNT.
  at(t(201, 14, 0), () => tx('holder', C.tax, 'erc20_transfer', 'holder sends 1000 TAX to merchant (2% goes to the treasury)', { data: call('FeeToken', 'transfer', [A.merchant, T(1_000)]), gas: 90_000 }));
  at(t(201, 14, 1), () => tx('holder', C.olg, 'erc20_transfer', 'holder sends 1000 OLG to merchant (no return value)', { data: call('LegacyToken', 'transfer', [A.merchant, T(1_000)]), gas: 90_000 }));
  at(t(201, 14, 2), () => tx('holder', C.broken, 'erc20_transfer', 'holder sends 7 BROKEN to merchant', { data: call('BrokenToken', 'transfer', [A.merchant, T(7)]), gas: 90_000 }));
  at(t(201, 14, 3), () => tx('holder', C.keys, 'nft_transfer', 'holder sends Lantern Key #3 to merchant', { data: call('Keys721', 'transferFrom', [A.holder, A.merchant, 3n]), gas: 120_000 }));
  at(t(201, 14, 4), () => tx('holder', C.lnt, 'erc20_burn', 'holder burns all her LNT (a token she no longer holds)', { data: call('Token', 'burn', [T(50)]), gas: 60_000 }));
  // The partly used approval: merchant pulls 250 of the 1000 TAX it may spend (OpenZeppelin emits no Approval for it).
  at(t(201, 16, 0), () => tx('merchant', C.tax, 'erc20_transfer', 'merchant pulls 250 TAX from holder (transferFrom: partly uses the approval)', {
    data: call('FeeToken', 'transferFrom', [A.holder, A.merchant, T(250)]), gas: 120_000,
  }));

  // Day 202-203: rebases change balances with no Transfer log; revocations; an unsolicited airdrop.
  at(t(202, 9, 0), () => tx('issuer', C.rlnt, 'contract_call', 'issuer rebases rLNT by +5% (no Transfer log)', { data: call('RebasingToken', 'rebase', [T('1.05')]), gas: 60_000 }));
  at(t(202, 10, 0), () => tx('holder', C.rlnt, 'erc20_transfer', 'holder sends 100 rLNT to merchant', { data: call('RebasingToken', 'transfer', [A.merchant, T(100)]), gas: 90_000 }));
  at(t(202, 11, 0), () => tx('holder', C.olg, 'approve', "holder revokes merchant's OLG approval (approve 0)", { data: call('LegacyToken', 'approve', [A.merchant, 0n]), gas: 60_000 }));
  at(t(202, 11, 1), () => tx('holder', C.keys, 'approve', 'holder revokes issuer as an operator of her Keys', { data: call('Keys721', 'setApprovalForAll', [A.issuer, false]), gas: 60_000 }));
  at(t(202, 12, 0), () => tx('spammer', C.spam, 'airdrop', 'spam airdrop to holder', { data: call('Token', 'airdrop', [[A.holder], T(4_000)]), gas: 110_000 }));
  at(t(203, 9, 0), () => tx('issuer', C.rlnt, 'contract_call', 'issuer rebases rLNT to +10% (no Transfer log)', { data: call('RebasingToken', 'rebase', [T('1.1')]), gas: 60_000 }));
}
