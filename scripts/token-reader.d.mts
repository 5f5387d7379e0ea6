// Types of scripts/token-reader.mjs for TypeScript callers (the test that recompiles the contract).
export const SOURCE: string;
export const CODE_FILE: string;
export function compileTokenReader(): { code: `0x${string}`; compiler: string };
export function codeModule(compiled: { code: string; compiler: string }): string;
