export function parsePublicOrigins(raw: string | undefined): string[];
export function developmentOrigins(port: number | string): string[];
export function matchOrigin(origins: string[], header: string | null | undefined): string | undefined;
