export { readReference, REFERENCE_DIR } from '../../support/reference';

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
