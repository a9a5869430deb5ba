// Writes lib/api/api-routes.json: every route under app/api with the HTTP methods its route.ts exports.
// The proxy answers a wrong method with 405 and an Allow header from this table before Next.js does
// (Next's own 405 has an empty body and no Allow). The table is derived from the route files, never
// typed by hand: `npm run build` regenerates it, and test/unit/api-routes.test.ts fails when the
// committed copy differs from the route modules' real exports.
//
//   node scripts/api-routes.mjs          write the table
//   node scripts/api-routes.mjs --check  exit 1 when the table is out of date
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const API_DIR = path.join(ROOT, "app/api");
export const TABLE_FILE = path.join(ROOT, "lib/api/api-routes.json");
// The methods a route module may export (Next.js's HTTP_METHODS).
const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"];

function routeFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** The HTTP methods a route file exports: `export const GET =`, `export async function GET`, `export { x as GET }`. */
export function exportedMethods(source) {
  const found = new Set();
  for (const m of source.matchAll(/export\s+(?:const|let|var|(?:async\s+)?function)\s+([A-Z]+)\b/g)) found.add(m[1]);
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of m[1].split(",")) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) found.add(name);
    }
  }
  return METHODS.filter((method) => found.has(method));
}

/** Every route as its URL pattern (`/api/learnings/[id]`) and methods, in a stable order. */
export function buildTable() {
  return routeFiles(API_DIR)
    .map((file) => {
      const dir = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
      // Route groups, `(name)`, are not part of the URL.
      const pattern = "/" + dir.filter((seg) => !/^\(.*\)$/.test(seg)).join("/");
      return { pattern, methods: exportedMethods(readFileSync(file, "utf8")) };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

export function serialize(table) {
  return JSON.stringify(table, null, 2) + "\n";
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = serialize(buildTable());
  if (process.argv.includes("--check")) {
    if (readFileSync(TABLE_FILE, "utf8") !== text) {
      console.error("lib/api/api-routes.json is out of date: run node scripts/api-routes.mjs");
      process.exit(1);
    }
  } else {
    writeFileSync(TABLE_FILE, text);
  }
}
