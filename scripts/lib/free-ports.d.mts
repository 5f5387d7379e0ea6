export function freePortsSync(n: number): number[];
