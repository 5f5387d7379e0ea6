#!/usr/bin/env node
// The methods each route handler serves, read from the route modules themselves (app/**/route.ts), for
// the edge guard's Allow and 405s (lib/edge/routes.ts reads lib/edge/route-methods.json).
//   node scripts/route-methods.mjs           writes lib/edge/route-methods.json
//   node scripts/route-methods.mjs --check   fails when the file is not what the routes export
// `npm run build` runs --check first; tests/unit/edge/route-methods.test.ts does too.
//
// A route serves the HTTP methods it exports, except the ones it takes from lib/api/handler.ts's
// `otherMethods(...)`: those answer 405 (its OPTIONS is the CORS preflight, which is served). HEAD is
// served wherever GET is (Next answers it from the GET handler).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MANIFEST = path.join(root, 'lib/edge/route-methods.json');

/** The methods a route module's source serves, in HTTP_METHODS order. */
export function servedMethods(source) {
  const file = ts.createSourceFile('route.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const served = new Set();
  const exported = (node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of file.statements) {
    if (ts.isFunctionDeclaration(st) && exported(st) && st.name) served.add(st.name.text);
    else if (ts.isVariableStatement(st) && exported(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) served.add(d.name.text);
        else if (ts.isObjectBindingPattern(d.name)) {
          const refusals = d.initializer && ts.isCallExpression(d.initializer) && ts.isIdentifier(d.initializer.expression) && d.initializer.expression.text === 'otherMethods';
          for (const el of d.name.elements) {
            const name = ts.isIdentifier(el.name) ? el.name.text : '';
            if (!refusals || name === 'OPTIONS') served.add(name);
          }
        }
      }
    } else if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) served.add(el.name.text);
    }
  }
  if (served.has('GET')) served.add('HEAD');
  return HTTP_METHODS.filter((m) => served.has(m));
}

/** Every route handler under `appDir`: its URL pattern (Next's segment syntax) and the methods it serves. */
export function deriveRouteMethods(appDir = path.join(root, 'app')) {
  const routes = [];
  const walk = (dir, segments) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) {
        // Route groups `(name)` and parallel slots `@name` are not part of the URL; `_name` is private.
        if (entry.name.startsWith('_')) continue;
        const inUrl = !/^\(.*\)$/.test(entry.name) && !entry.name.startsWith('@');
        walk(path.join(dir, entry.name), inUrl ? [...segments, entry.name] : segments);
      } else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) {
        routes.push({ route: `/${segments.join('/')}`, methods: servedMethods(readFileSync(path.join(dir, entry.name), 'utf8')) });
      }
    }
  };
  walk(appDir, []);
  return routes.sort((a, b) => (a.route < b.route ? -1 : a.route > b.route ? 1 : 0));
}

/** One route a line, so a diff shows which route's methods changed. */
export const manifestText = (routes) => `[\n${routes.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = manifestText(deriveRouteMethods());
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(MANIFEST, 'utf8');
    } catch {}
    if (current !== text) {
      console.error(`${path.relative(process.cwd(), MANIFEST)} is not what app/**/route.ts export: run \`node scripts/route-methods.mjs\` and commit it.`);
      process.exit(1);
    }
  } else {
    writeFileSync(MANIFEST, text);
    console.log(`wrote ${path.relative(process.cwd(), MANIFEST)}`);
  }
}
