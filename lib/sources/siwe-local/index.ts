import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  BaseError,
  getAddress,
  HttpRequestError,
  recoverMessageAddress,
  size,
  TimeoutError,
  type Address,
  type Hex,
} from 'viem';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { clock } from '@/lib/clock';
import { DEVNET_CHAIN } from '@/lib/chains';
import { db } from '@/lib/db';
import { badParameter, LanternError } from '@/lib/errors';
import type { ChallengeRequestBody, ChallengeResponse, VerifyBody, VerifyResult } from '@/lib/interface/auth';
import { profileIdFor } from './profile-id';
import { breakerOpenInChain } from '@/lib/sources/breaker';
import { evmNode, evmNodeChains } from '@/lib/sources/evm-nodes';
import type { SignInSource } from '@/lib/sources/types';

/**
 * Lantern's own Sign-In with Ethereum (EIP-4361), used when no DATA_API_KEY is set.
 *
 * A challenge is stored in the database with its exact message and an expiry (`timeout`, 15-120 s).
 * Verify accepts only that exact message (byte for byte), inside its time window, signed by its
 * address, and marks it used with one conditional UPDATE: of any number of concurrent verifies of one
 * challenge, exactly one succeeds, on PGlite and PostgreSQL alike.
 *
 * Signatures: plain accounts by ECDSA recovery (any chain, no RPC needed). Contract wallets
 * (EIP-1271) and not-yet-deployed ones (EIP-6492) need the chain's RPC: Lantern has one for each chain
 * it has a node for (lib/sources/evm-nodes.ts; the two local devnets by default). For other chains a
 * contract-wallet signature is refused with 400 `chain_unsupported` naming the chain, never guessed.
 */

const NONCE_BYTES = 16; // 32 hex characters: alphanumeric, 128 bits from the OS CSPRNG

/**
 * viem's generateSiweNonce draws from Math.random, which is not a CSPRNG; EIP-4361 nonces must be
 * unpredictable, so Lantern makes its own from node:crypto.
 */
export function newNonce(): string {
  return randomBytes(NONCE_BYTES).toString('hex');
}

export async function localRequestChallenge(body: ChallengeRequestBody): Promise<ChallengeResponse> {
  checkUriMatchesDomain(body.domain, body.uri);
  const now = clock.now();
  if (body.expirationTime && Date.parse(body.expirationTime) <= now) {
    throw badParameter('expirationTime', 'expirationTime: is already in the past');
  }
  const nonce = newNonce();
  const address = getAddress(body.address);
  let message: string;
  try {
    message = createSiweMessage({
      domain: body.domain,
      address,
      statement: body.statement,
      uri: body.uri,
      version: '1',
      chainId: body.chainId,
      nonce,
      issuedAt: new Date(now),
      expirationTime: body.expirationTime ? new Date(body.expirationTime) : undefined,
      notBefore: body.notBefore ? new Date(body.notBefore) : undefined,
      resources: body.resources,
    });
  } catch (e) {
    // createSiweMessage validates every field against EIP-4361 (domain and URI syntax, ...).
    const detail = e instanceof BaseError ? e.shortMessage : 'invalid field';
    throw new LanternError(400, 'invalid_request', `The challenge cannot be made: ${detail}`);
  }
  const id = randomUUID();
  const profileId = profileIdFor(address);
  const d = await db();
  await d.query(
    `INSERT INTO auth_challenges (id, nonce, message, address, chain_id, domain, uri, profile_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, to_timestamp($9::double precision / 1000))`,
    [id, nonce, message, address, body.chainId, body.domain, body.uri, profileId, now + body.timeout * 1000],
  );
  // Keep used and expired challenges a day, so a late replay is told "used"/"expired", then forget them.
  if (Math.random() < 0.02) {
    await d.query(`DELETE FROM auth_challenges WHERE expires_at < now() - interval '1 day'`).catch(() => undefined);
  }
  return { id, message, profileId };
}

interface ChallengeRow {
  id: string;
  message: string;
  address: string;
  chain_id: string | number;
  profile_id: string;
  used: boolean;
  expired: boolean;
}

export async function localVerifyChallenge({ message, signature }: VerifyBody): Promise<VerifyResult> {
  const parsed = parseStrict(message);
  const now = clock.now();
  const d = await db();
  const row = (
    await d.query<ChallengeRow>(
      `SELECT id, message, address, chain_id, profile_id, used_at IS NOT NULL AS used, expires_at <= to_timestamp($2::double precision / 1000) AS expired
       FROM auth_challenges WHERE nonce = $1`,
      [parsed.nonce, now],
    )
  ).rows[0];
  if (!row) throw new LanternError(404, 'challenge_not_found', 'No challenge with this nonce was issued by this server; request a new one.');
  if (row.used) throw used();
  if (row.expired) throw expired();
  if (row.message !== message) {
    throw new LanternError(400, 'message_mismatch', 'The message is not exactly the challenge issued for this nonce (any changed character or line ending counts).');
  }
  if (parsed.notBefore && parsed.notBefore.getTime() > now) {
    throw new LanternError(400, 'challenge_not_yet_valid', `The message is not valid before ${parsed.notBefore.toISOString()}.`);
  }
  if (parsed.expirationTime && parsed.expirationTime.getTime() <= now) {
    throw new LanternError(410, 'challenge_expired', `The message expired at ${parsed.expirationTime.toISOString()}.`);
  }
  const address = getAddress(row.address);
  const chainId = Number(row.chain_id);
  await checkSignature(address, chainId, message, signature as Hex);

  // The one gate: whoever sets used_at first wins; everyone else is told the challenge is used.
  const won = await d.query(
    `UPDATE auth_challenges SET used_at = now() WHERE nonce = $1 AND used_at IS NULL AND expires_at > to_timestamp($2::double precision / 1000) RETURNING id`,
    [parsed.nonce, clock.now()],
  );
  if (won.rows.length === 0) {
    const again = (await d.query<{ used: boolean }>('SELECT used_at IS NOT NULL AS used FROM auth_challenges WHERE nonce = $1', [parsed.nonce])).rows[0];
    throw again?.used ? used() : expired();
  }
  return {
    id: row.id,
    domain: parsed.domain,
    chainId,
    address,
    statement: parsed.statement ?? null,
    uri: parsed.uri,
    expirationTime: parsed.expirationTime?.toISOString() ?? null,
    notBefore: parsed.notBefore?.toISOString() ?? null,
    resources: parsed.resources ?? [],
    version: parsed.version,
    nonce: parsed.nonce,
    profileId: row.profile_id,
  };
}

const used = () => new LanternError(409, 'challenge_used', 'This challenge has already been used to sign in; request a new one.');
const expired = () => new LanternError(410, 'challenge_expired', 'The challenge has expired; request a new one and sign it within its timeout.');

/** EIP-4361 requires these lines; a message without them is malformed, whatever else it says. */
function parseStrict(message: string) {
  const p = parseSiweMessage(message);
  const missing = (['domain', 'address', 'uri', 'version', 'chainId', 'nonce', 'issuedAt'] as const).filter((k) => p[k] === undefined || p[k] === '');
  if (missing.length) {
    throw new LanternError(400, 'invalid_request', `The message is not an EIP-4361 sign-in message: missing or unreadable ${missing.join(', ')}.`);
  }
  for (const k of ['issuedAt', 'expirationTime', 'notBefore'] as const) {
    if (p[k] && Number.isNaN(p[k].getTime())) throw new LanternError(400, 'invalid_request', `The message's ${k} is not an RFC 3339 timestamp.`);
  }
  if (p.version !== '1') throw new LanternError(400, 'invalid_request', 'The message must be EIP-4361 version 1.');
  return p as typeof p & { domain: string; address: Address; uri: string; version: '1'; chainId: number; nonce: string; issuedAt: Date };
}

/**
 * Decision: a challenge's URI must be an http(s) URL on the challenge's own domain (host[:port]).
 * EIP-4361 wallets show the domain as the site asking; a URI elsewhere would let one site word a
 * message that points at another.
 */
function checkUriMatchesDomain(domain: string, uri: string) {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    throw badParameter('uri', 'uri: expected an absolute URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw badParameter('uri', 'uri: must be an http(s) URL on the same domain');
  if (u.host.toLowerCase() !== domain.toLowerCase()) throw badParameter('uri', `uri: its host (${u.host}) must be the domain (${domain})`);
}

async function checkSignature(address: Address, chainId: number, message: string, signature: Hex) {
  // Shorter than an ECDSA signature: no wallet of any kind makes these.
  if (size(signature) < 64) {
    throw new LanternError(400, 'invalid_request', `The signature is malformed: ${size(signature)} bytes, where a wallet signature has 65 (more for contract wallets).`, {
      parameter: 'signature',
    });
  }
  // Plain accounts: recovery, no RPC. A 64/65-byte signature that recovers to the address is final.
  if (size(signature) === 65 || size(signature) === 64) {
    const signer = await recoverMessageAddress({ message, signature }).catch(() => undefined);
    if (signer && signer === address) return;
  }
  const node = await nodeFor(chainId);
  if (!node) {
    if (isErc6492(signature) || size(signature) !== 65) {
      const served = (await evmNodeChains(0)).chains.map((c) => c.chain.id);
      throw new LanternError(
        400,
        'chain_unsupported',
        `Contract wallets on chain ${chainId} need an RPC for that chain, and this server has none; sign in with a plain account or on chain ${served.length ? served.join(' or ') : '(none)'}.`,
      );
    }
    throw mismatch(address);
  }
  const client = node.single;
  let ok = false;
  try {
    // EIP-6492 (counterfactual), EIP-1271 (deployed) and ECDSA, through viem's universal validator.
    ok = await client.verifyMessage({ address, message, signature });
  } catch (e) {
    const open = breakerOpenInChain(e);
    if (open) throw open;
    if (isTransportError(e)) {
      throw new LanternError(503, 'upstream_unavailable', `Lantern could not reach the RPC of chain ${chainId} to check a contract-wallet signature; try again.`, {
        source: node.breaker.source,
      });
    }
    ok = false;
  }
  if (ok) return;
  const code = await client.getCode({ address }).catch(() => undefined);
  if ((code && code !== '0x') || isErc6492(signature)) {
    throw new LanternError(401, 'contract_wallet_refused', `The contract wallet ${address} did not accept this signature (EIP-1271/EIP-6492 check failed).`);
  }
  throw mismatch(address);
}

const mismatch = (address: Address) => new LanternError(401, 'signature_mismatch', `The signature does not match: it was not made by ${address} over this message.`);

const ERC6492_MAGIC = '6492649264926492649264926492649264926492649264926492649264926492';
const isErc6492 = (sig: Hex) => sig.toLowerCase().endsWith(ERC6492_MAGIC);

function isTransportError(e: unknown): boolean {
  return e instanceof BaseError && !!e.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError);
}


/** The node of `chainId` when Lantern has one (checked against its chain, through its breaker); undefined otherwise. */
async function nodeFor(chainId: number) {
  const { chains } = await evmNodeChains(0);
  if (!chains.some((c) => c.chain.id === chainId)) return undefined;
  return evmNode(chainId);
}

/**
 * Lantern's own sign-in as a source (lib/sources/types.ts). People sign in on a chain Lantern has a node
 * for, so contract wallets can be checked; the first configured node's chain is the one asked for.
 */
export const localSignIn: SignInSource = {
  requestChallenge: localRequestChallenge,
  verifyChallenge: localVerifyChallenge,
  async chains() {
    return (await evmNodeChains()).chains.map((c) => c.chain.id);
  },
  // The devnet's account, where the local devnet is served (by its node, or by a Lantern this one fronts).
  offeredChains: (served) => (served.some((s) => s.chain.id === DEVNET_CHAIN.id) ? [DEVNET_CHAIN.id] : []),
};
