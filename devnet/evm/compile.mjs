// Compiles devnet/evm/contracts/*.sol with the npm solc (offline; OpenZeppelin from node_modules) and writes
// devnet/evm/artifacts/<Contract>.json ({contractName, sourceName, abi, bytecode, deployedBytecode}).
// Run: node devnet/evm/compile.mjs  (artifacts are committed; rerun after editing a contract).
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const contractsDir = path.join(here, 'contracts');
const artifactsDir = path.join(here, 'artifacts');

/** The contracts that get an artifact (libraries and interfaces do not). */
export const CONTRACTS = [
  'Token', 'Lights721', 'Items1155', 'MultiSend', 'FixedRatePool', 'Guard', 'SmartWallet', 'WalletFactory', 'Linked721', 'Linked1155',
  'RebasingToken', 'FeeToken', 'LegacyToken', 'BrokenToken', 'Keys721',
];

const repoRoot = path.resolve(here, '../..');

/** `@openzeppelin/...` imports, read from the installed package (offline). */
function findImports(p) {
  try {
    return { contents: readFileSync(path.join(repoRoot, 'node_modules', p), 'utf8') };
  } catch {
    return { error: `not found: ${p}` };
  }
}

export function compile() {
  const solc = createRequire(import.meta.url)('solc');
  const sources = {};
  for (const f of readdirSync(contractsDir).filter((n) => n.endsWith('.sol')).sort()) {
    sources[f] = { content: readFileSync(path.join(contractsDir, f), 'utf8') };
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      // No metadata hash: the bytecode then depends only on the source, not on file paths or comments.
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const artifacts = {};
  for (const [sourceName, contracts] of Object.entries(out.contracts)) {
    for (const [name, c] of Object.entries(contracts)) {
      if (!CONTRACTS.includes(name)) continue;
      artifacts[name] = {
        contractName: name,
        sourceName,
        compiler: `solc ${solc.version()}`,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
    }
  }
  for (const name of CONTRACTS) if (!artifacts[name]) throw new Error(`solc produced no ${name}`);
  return artifacts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const artifacts = compile();
  mkdirSync(artifactsDir, { recursive: true });
  for (const [name, a] of Object.entries(artifacts)) {
    writeFileSync(path.join(artifactsDir, `${name}.json`), `${JSON.stringify(a, null, 2)}\n`);
  }
  console.log(`compiled ${Object.keys(artifacts).length} contracts in ${Date.now() - t0} ms -> ${artifactsDir}`);
}
