// Types of scripts/lib/warm-up.mjs for TypeScript callers (tests).
export const WARM_UP_PATHS: string[];
export const WARM_UP_FLAG: 'lantern-warm-up';
export const WARM_UP_LOG_IGNORE: RegExp;
export function flagged(path: string): string;
export function warmPaths(origin: string, paths?: string[], log?: (line: string) => void): Promise<number>;
export function warmUp(handle: (req: unknown, res: unknown) => void, log?: (line: string) => void, paths?: string[]): Promise<number>;
