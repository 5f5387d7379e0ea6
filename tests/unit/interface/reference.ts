import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * shared/reference sits beside the checkout (CI clones the repo next to `shared/`); worktrees sit one
 * level deeper. SHARED_DIR overrides. Missing is a failure, never a skip: these tests must run.
 */
export function sharedReferenceDir(): string {
  const candidates: string[] = [];
  if (process.env.SHARED_DIR) candidates.push(path.join(process.env.SHARED_DIR, 'reference'), process.env.SHARED_DIR);
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  for (let dir = repoRoot, i = 0; i < 3; i++, dir = path.dirname(dir)) {
    candidates.push(path.resolve(dir, '..', 'shared', 'reference'));
  }
  const found = candidates.find((c) => fs.existsSync(path.join(c, 'SOURCES.md')));
  if (!found) throw new Error(`shared/reference not found; set SHARED_DIR. Looked in: ${candidates.join(', ')}`);
  return found;
}

export function readReference<T = unknown>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(sharedReferenceDir(), name), 'utf8')) as T;
}

type JsonSchema = {
  $ref?: string;
  type?: string;
  example?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
};

/**
 * A response assembled from the provider's own OpenAPI `example` values (there is no captured history
 * page among the references). Examples are used verbatim, so their quirks (page "2" for an integer,
 * a numeric value for a string) reach the schemas as the provider documents them.
 */
export function exampleFromOpenApi(doc: { components: { schemas: Record<string, JsonSchema> } }, name: string): unknown {
  const resolve = (s: JsonSchema): JsonSchema => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s);
  const build = (raw: JsonSchema, depth: number): unknown => {
    if (raw.example !== undefined) return raw.example;
    const s = resolve(raw);
    if (s.example !== undefined) return s.example;
    if (s.enum) return s.enum[0];
    if (depth > 8 || s.oneOf) return undefined;
    if (s.properties) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties)) {
        const value = build(v, depth + 1);
        if (value !== undefined) out[k] = value;
      }
      return out;
    }
    if (s.type === 'array' && s.items) {
      const item = build(s.items, depth + 1);
      return item === undefined ? [] : [item];
    }
    return undefined;
  };
  return build({ $ref: `#/components/schemas/${name}` }, 0);
}
