// Types of scripts/signatures.mjs for the tests that compare its output with the committed data.
export function buildSignatures(): {
  version: number;
  sources: { package: string; version: string; what: string; contracts: number; functions: number; events: number }[];
  functions: Record<string, string[]>;
  events: Record<string, string[]>;
};
export function buildDevnetContracts(): {
  version: number;
  contracts: { name: string; abi: string[]; codeLength: number; codeHash: string; immutables: number[] }[];
};
export function immutableWindows(code: string): number[];
