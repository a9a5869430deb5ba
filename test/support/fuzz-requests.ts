import { readdirSync } from "node:fs";
import path from "node:path";
import { LEARNING_KINDS } from "../../lib/rules";
import { ROOT } from "./server";
import { buildTable } from "../../scripts/api-routes.mjs";

/** A small seeded PRNG (mulberry32): the same seed gives the same requests on every run. */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A route to aim at: its URL pattern (`/projects/[slug]`), whether it is the API, and the methods to favour. */
export type Target = { pattern: string; api: boolean; methods: string[] };

/** Every API route (app/api/**\/route.ts) and dashboard page (app/**\/page.tsx). */
export function fuzzTargets(): Target[] {
  const api = (buildTable() as { pattern: string; methods: string[] }[]).map((r) => ({ ...r, api: true }));
  const pages = pageFiles(path.join(ROOT, "app")).map((file) => {
    const dir = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
    const pattern = "/" + dir.filter((seg) => seg && !/^\(.*\)$/.test(seg)).join("/");
    return { pattern, api: false, methods: ["GET", "POST"] };
  });
  return [...api, ...pages];
}

function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pageFiles(path.join(dir, e.name)) : e.name === "page.tsx" ? [path.join(dir, e.name)] : [],
  );
}

/** Values for path parameters and bodies: real ones of several owners, and unknown ones. */
export type Pools = { slugs: string[]; ids: string[]; taskIds: string[] };

export type FuzzRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** A Content-Length that does not describe the body: sent on its own connection. */
  oddLength?: boolean;
  api: boolean;
};

const PAGE_SHARE = 0.15;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];
// TRACE and TRACK never reach Next.js well (the Fetch API refuses one, Node's parser the other): lib/api/guard-http-server.ts.
const RARE_METHODS = ["PROPFIND", "MKCOL", "PURGE", "LOCK", "SEARCH", "REPORT", "TRACE", "TRACK"];
// Hostile path segments: bad and overlong percent-encodings, traversal, control and bidi characters, long.
const HOSTILE_SEGMENTS = [
  "%ff", "%", "x%", "%C0%AE%C0%AE", "%E0%A4%A", "%ED%A0%80", "..", "%2e%2e", "..%2f..%2fetc", "%2F", "%00", "%0A", "%20",
  "%E2%80%AE", encodeURIComponent("été"), encodeURIComponent("😀"), encodeURIComponent("名前"), "a".repeat(3000), "-", "_", "0",
];
const WORDS = ["deploy", "migrations", "cache", "flaky", "retry", "branch", "review", "lint", "tokens", "schema", "queue", "budget"];
const QUERY_KEYS = ["q", "limit", "cursor", "project", "kind", "status", "budget", "maxChars", "format", "mode", "branch", "task", "cwd", "remote", "source", "sessionId"];
const QUERY_VALUES = ["%ff", "-1", "0", "99999999999999999999", "zzz", "beta", "alpha", "claude", "text", "json", "%00", "..", "a".repeat(2000), "1e3", "[]", "%C0%AE", "pattern", "pending"];

function words(rng: Rng, n: number): string {
  return Array.from({ length: n }, () => rng.pick(WORDS)).join(" ");
}

function fillPattern(rng: Rng, pattern: string, pools: Pools): string[] {
  return pattern
    .split("/")
    .filter(Boolean)
    .flatMap((seg) => {
      if (seg.startsWith("[...")) return Array.from({ length: 1 + rng.int(3) }, () => rng.pick([...WORDS, ...HOSTILE_SEGMENTS]));
      if (seg === "[slug]") return [encodeURIComponent(rng.pick(pools.slugs))];
      if (seg === "[taskId]") return [encodeURIComponent(rng.pick(pools.taskIds))];
      if (seg.startsWith("[")) return [encodeURIComponent(rng.pick(pools.ids))];
      return [seg];
    });
}

function fuzzPath(rng: Rng, target: Target, pools: Pools): string {
  const segments = fillPattern(rng, target.pattern, pools);
  if (rng.chance(0.3) && segments.length) segments[rng.int(segments.length)] = rng.pick(HOSTILE_SEGMENTS);
  if (rng.chance(0.1)) segments.push(rng.pick(HOSTILE_SEGMENTS));
  let query = "";
  if (rng.chance(0.4)) {
    const pairs = Array.from({ length: 1 + rng.int(4) }, () => `${rng.pick(QUERY_KEYS)}=${rng.chance(0.5) ? rng.pick(QUERY_VALUES) : encodeURIComponent(rng.pick(pools.slugs))}`);
    query = "?" + pairs.join("&");
  }
  return "/" + segments.join("/") + query;
}

/** A body the route might accept, before it is broken. */
function plausibleBody(rng: Rng, pattern: string, pools: Pools): unknown {
  const content = `${words(rng, 3 + rng.int(8))} ${rng.int(1e6)}`;
  const markdown = `# ${words(rng, 2)}\n\n${content}`;
  if (pattern.endsWith("/mcp")) return mcpMessage(rng, pools);
  if (pattern.endsWith("/review")) return { items: [{ id: rng.pick(pools.ids), action: rng.pick(["accept", "reject", "delete", 7]), content }] };
  if (pattern.endsWith("/accept")) return rng.chance(0.5) ? {} : { content };
  if (pattern.endsWith("/active-task")) return { taskId: rng.pick(pools.taskIds) };
  if (pattern.endsWith("/memory") || pattern.endsWith("/handoffs")) return { markdown, sessionId: rng.chance(0.3) ? `s-${rng.int(5)}` : undefined };
  if (pattern.endsWith("/sessions")) return { markdown: `---\npriority: ${rng.pick(["high", "low", 3, "x"])}\n---\n${markdown}` };
  if (pattern === "/api/projects") return { slug: `p-${rng.int(1e6)}`, name: words(rng, 2) };
  if (pattern === "/api/seed") return { identity: { aiName: words(rng, 1), principalName: words(rng, 1), preferences: [content] } };
  if (pattern === "/api/seed/import") return { version: 1, identity: { aiName: "x" }, learnings: { patterns: [{ id: `i-${rng.int(50)}`, content }] } };
  return { kind: rng.pick([...LEARNING_KINDS, "nope"]), content, project: rng.chance(0.5) ? rng.pick(pools.slugs) : undefined, tags: [words(rng, 1)], confidence: rng.next() };
}

function mcpMessage(rng: Rng, pools: Pools): unknown {
  const slug = rng.pick(pools.slugs);
  const calls = [
    { method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } } },
    { method: "tools/list", params: {} },
    { method: "resources/list", params: {} },
    { method: "tools/call", params: { name: rng.pick(["search_learnings", "get_task_memory", "propose_learning", "write_handoff", "set_task_memory", "pickup_session", "nope"]), arguments: { project: slug, query: words(rng, 2), taskId: rng.pick(pools.taskIds), markdown: words(rng, 4), kind: "pattern", content: words(rng, 5), id: rng.pick(pools.ids) } } },
    { method: "resources/read", params: { uri: rng.pick([`baton://context/${slug}`, `baton://memory/${slug}/active`, `baton://handoff/${slug}/latest`, `baton://session/${rng.pick(pools.ids)}`, "baton://nope"]) } },
  ];
  return { jsonrpc: "2.0", id: rng.int(1000), ...rng.pick(calls) };
}

/** Replaces one value somewhere in the body with a value of the wrong type. */
function wrongTypes(rng: Rng, value: unknown): unknown {
  if (!value || typeof value !== "object") return value;
  const copy: Record<string, unknown> = Array.isArray(value) ? { ...value } : { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  if (!keys.length) return value;
  const key = rng.pick(keys);
  copy[key] = rng.chance(0.4) ? wrongTypes(rng, copy[key]) : rng.pick([123, -1, null, true, [], {}, "\u0000", "x".repeat(20_000), { $gt: "" }, [1, [2]], 1e308]);
  return Array.isArray(value) ? Object.values(copy) : copy;
}

function fuzzBody(rng: Rng, pattern: string, pools: Pools, maxBodyBytes: number): { body: Buffer; type: string | undefined } {
  const roll = rng.int(20);
  const type = rng.pick(["application/json", "application/json", "application/json", "text/plain", undefined, "application/json; charset=utf-16", "multipart/form-data; boundary=zz", "application/x-www-form-urlencoded"]);
  let text: string;
  if (roll === 0) text = rng.pick(["{", "", "null", "[]", '"text"', "{\"a\":", "\u0000", "{}".repeat(1000), "--zz\r\nContent-Disposition: form-data\r\n\r\n--", "a=%ff&b"]);
  else if (roll === 1) text = "[".repeat(20_000) + "]".repeat(20_000);
  else if (roll === 2) text = JSON.stringify({ content: "x".repeat(maxBodyBytes + 100) });
  else if (roll === 3) text = JSON.stringify(plausibleBody(rng, pattern, pools)).replace(/"([^"]*)"/, '"$1\\u0000"');
  else if (roll < 10) text = JSON.stringify(wrongTypes(rng, plausibleBody(rng, pattern, pools)));
  else text = JSON.stringify(plausibleBody(rng, pattern, pools));
  return { body: Buffer.from(text ?? "null"), type };
}

const AUTH_NOISE = ["Bearer", "Bearer ", "Basic YW5hOnB3", "Bearer baton_00000000000000000000000000000000", "bearer x y", `Bearer ${"a".repeat(5000)}`, "Bearer \u00e9"];

/**
 * One request: a route, a method, a path (sometimes broken), a body (often wrong), and headers. The
 * caller gives the credentials of the actor; the request sometimes garbles them.
 */
export function fuzzRequest(rng: Rng, targets: Target[], pools: Pools, credentials: Record<string, string>, origin: string, maxBodyBytes: number): FuzzRequest {
  // Pages are a sixth of the requests: without a session most of them only redirect to sign-in.
  const pages = targets.filter((t) => !t.api);
  const target = rng.chance(PAGE_SHARE) && pages.length ? rng.pick(pages) : rng.pick(targets.filter((t) => t.api));
  const method = rng.chance(0.7) ? rng.pick(target.methods) : rng.chance(0.9) ? rng.pick(METHODS) : rng.pick(RARE_METHODS);
  const headers: Record<string, string> = { ...credentials };
  if (rng.chance(0.08)) headers.authorization = rng.pick(AUTH_NOISE);
  if (target.api && target.pattern.endsWith("/mcp")) headers.accept = "application/json, text/event-stream";
  if (rng.chance(0.15)) headers.origin = rng.pick(["http://evil.example", "null", origin, "http://127.0.0.1:1"]);
  const requestPath = fuzzPath(rng, target, pools);
  // Judged by where it lands: a broken first segment, or `..` (resolved as every URL parser and Next.js
  // do), can take the request out of the API.
  const landing = new URL(requestPath, "http://host").pathname;
  const request: FuzzRequest = { method, path: requestPath, headers, api: landing === "/api" || landing.startsWith("/api/") };
  if (method !== "GET" && method !== "HEAD" && rng.chance(0.85)) {
    const { body, type } = fuzzBody(rng, target.pattern, pools, maxBodyBytes);
    request.body = body;
    if (type) headers["content-type"] = type;
    // Stated always: Node's client frames a DELETE or OPTIONS body by no other means.
    headers["content-length"] = String(body.length);
    if (rng.chance(0.04)) {
      headers["content-length"] = rng.pick(["abc", "-1", String(Math.max(0, body.length - 3)), "1.5"]);
      request.oddLength = true;
    }
  }
  return request;
}
