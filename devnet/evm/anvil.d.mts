// Types of devnet/evm/anvil.mjs for TypeScript callers (tests that need a bare chain of their own).
export function resolveAnvilBinary(): string;
export function anvilVersion(bin?: string): string;
export function spawnAnvil(options: {
  port: number;
  host?: string;
  args?: string[];
  log?: (line: string) => void;
  timeoutMs?: number;
}): Promise<{ url: string; pid: number; stop: () => Promise<void>; output: () => string }>;
