export interface RouteMethods {
  route: string;
  methods: string[];
}
export const HTTP_METHODS: string[];
export const MANIFEST: string;
export function servedMethods(source: string): string[];
export function deriveRouteMethods(appDir?: string): RouteMethods[];
export function manifestText(routes: RouteMethods[]): string;
