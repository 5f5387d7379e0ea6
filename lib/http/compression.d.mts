export function acceptsGzip(header: string | null | undefined): boolean;
export function gzipWanted(body: Uint8Array, contentType: string | null | undefined, acceptEncoding: string | string[] | null | undefined): boolean;
export const ROUTE_VARY: string;
export const COMPRESSIBLE: RegExp;
