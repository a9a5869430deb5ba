import { sideClient } from "../support/side-db";
import { createHash } from "node:crypto";
import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { signInCookie } from "../support/dashboard-session";
import { WRITE_BEHIND_TABLES } from "../support/fixtures";
import { fuzzRequest, fuzzTargets, Rng, type FuzzRequest, type Pools } from "../support/fuzz-requests";
import { emailOf, TEST_MAX_BODY_BYTES, testWorld } from "../support/world";

/**
 * Adversarial requests over every API route and dashboard page, from a fixed seed: broken paths,
 * wrong methods, wrong bodies and headers, other users' tokens and ids. cy's data (her personal
 * learnings and the beta project) is the target nobody else may read or change; ana's personal
 * learnings and the gamma project are hers alone too. Asserts no 5xx, the API's error shape, no
 * other user's data in any answer, read-only actors never writing, and stored data intact.
 */
const SEED = 0x13a;
// Two thousand requests in all: 20–40 s of a busy two-core machine (load 8–10), the world's start aside.
const READ_ONLY_REQUESTS = 800;
const WRITER_REQUESTS = 1200;
const CONCURRENCY = 6;
const PASSWORD = "long enough pass";
// Words that appear only in one owner's private data, so any answer carrying one has leaked it.
const MARKER = { cy: "zqxcyonly", anaPersonal: "zqxanaonly", gamma: "zqxgammaonly" };

const world = testWorld({ env: { BATON_RATE_LIMIT: "1000000", BATON_MAX_BODY_BYTES: TEST_MAX_BODY_BYTES } });
const pools: Pools = { slugs: ["alpha", "beta", "gamma", "nope", "ALPHA"], ids: ["00000000-0000-0000-0000-000000000000", "1", "x"], taskIds: ["task-1", "TASK-9", "a..b"] };
let cookie = "";
let ids: { cy: string; beta: string } = { cy: "", beta: "" };

/** Each actor: who they are (whose data they may see), and the headers that make them so. */
type Actor = { name: string; user: string | null; headers: () => Record<string, string>; readOnly: boolean };
const bearer = (who: string) => () => ({ authorization: `Bearer ${world.tokens[who]}` });
const READ_ONLY_ACTORS: Actor[] = [
  { name: "anaRead", user: "ana", headers: bearer("anaRead"), readOnly: true },
  { name: "anonymous", user: null, headers: () => ({}), readOnly: true },
  { name: "revoked-looking token", user: null, headers: () => ({ authorization: "Bearer baton_ffffffffffffffffffffffffffffffff" }), readOnly: true },
  // A session cookie sent by a page of another site: it may read, never write (CSRF).
  { name: "cross-site cookie", user: "ana", headers: () => ({ cookie, origin: "http://evil.example" }), readOnly: true },
];
const WRITERS: Actor[] = [
  { name: "ana", user: "ana", headers: bearer("ana"), readOnly: false },
  { name: "bo", user: "bo", headers: bearer("bo"), readOnly: false },
  { name: "vi", user: "vi", headers: bearer("vi"), readOnly: false },
  { name: "anaGammaOnly", user: "ana", headers: bearer("anaGammaOnly"), readOnly: false },
  { name: "ana's dashboard", user: "ana", headers: () => ({ cookie, origin: world.server.url }), readOnly: false },
];

/** Markers the user may see: their own, and those of projects they belong to. */
function forbiddenMarkers(user: string | null): string[] {
  if (user === "ana") return [MARKER.cy];
  return [MARKER.cy, MARKER.anaPersonal, MARKER.gamma];
}

async function seedPrivateData(): Promise<void> {
  const post = async (who: string, path: string, body: unknown) => {
    const res = await world.as(who)("POST", path, body);
    expect(res.status, `${path}: ${res.text}`).toBeLessThan(300);
    return res.json;
  };
  const cyLearning = await post("cy", "/api/learnings", { kind: "pattern", content: `cy keeps ${MARKER.cy} to herself` });
  await post("cy", "/api/learnings", { kind: "insight", content: `beta knows ${MARKER.cy}`, project: "beta" });
  const proposal = await post("cy", "/api/proposals", { kind: "pattern", content: `beta proposal ${MARKER.cy}`, project: "beta" });
  await post("cy", "/api/projects/beta/handoffs", { markdown: `# beta handoff\n${MARKER.cy}`, sessionId: "s-1" });
  const session = await post("cy", "/api/projects/beta/sessions", { markdown: `# beta session\n${MARKER.cy}` });
  expect((await world.as("cy")("PUT", "/api/projects/beta/tasks/task-1/memory", { markdown: `beta memory ${MARKER.cy}` })).status).toBe(200);
  await post("ana", "/api/learnings", { kind: "pattern", content: `ana alone ${MARKER.anaPersonal}` });
  await post("ana", "/api/learnings", { kind: "pattern", content: `gamma only ${MARKER.gamma}`, project: "gamma" });
  await post("ana", "/api/projects/gamma/handoffs", { markdown: `gamma handoff ${MARKER.gamma}` });
  await post("ana", "/api/learnings", { kind: "pattern", content: "alpha shared knowledge", project: "alpha" });
  pools.ids.push(cyLearning.learning.id, proposal.proposal?.id ?? proposal.id, session.session?.id ?? session.id);
  const [row] = await world.sql("SELECT u.id AS cy, p.id AS beta FROM users u, projects p WHERE u.email = ? AND p.slug = 'beta'", [emailOf("cy")]);
  ids = { cy: String(row!.cy), beta: String(row!.beta) };
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string } | { error: string };

function send(base: URL, request: FuzzRequest, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method: request.method, path: request.path, headers: request.headers, agent: request.oddLength ? false : agent, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (e) => resolve({ error: e.message }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (e) => resolve({ error: e.message }));
    req.end(request.body);
  });
}

function isApiErrorShape(text: string): boolean {
  try {
    const body = JSON.parse(text);
    return body.ok === false && typeof body.error?.code === "string" && typeof body.error?.message === "string";
  } catch {
    return false;
  }
}

// The MCP endpoint answers protocol errors in JSON-RPC's error shape (its clients expect that).
function isJsonRpcError(text: string): boolean {
  try {
    const body = JSON.parse(text);
    return body.jsonrpc === "2.0" && typeof body.error?.code === "number";
  } catch {
    return false;
  }
}

/** Public routes that store something for anyone by design: `baton login`'s request for a code. */
const PUBLIC_WRITES = new Set(["/api/cli/login"]);

/** What is wrong with one answer, or null. */
function judge(actor: Actor, request: FuzzRequest, answer: Answer): string | null {
  if ("error" in answer) {
    // Node's HTTP parser may drop a connection whose Content-Length lies; nothing of Baton ran.
    return request.oddLength ? null : `no answer: ${answer.error}`;
  }
  if (answer.status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 200)}`;
  for (const marker of forbiddenMarkers(actor.user)) if (answer.text.includes(marker)) return `leaked ${marker}`;
  const writing = !["GET", "HEAD", "OPTIONS"].includes(request.method);
  const publicWrite = PUBLIC_WRITES.has(request.path.split("?")[0]!);
  if (actor.readOnly && writing && answer.status < 300 && request.api && !request.path.startsWith("/api/mcp") && !publicWrite) return `a read-only actor wrote (${answer.status})`;
  // Node's parser answers a lying Content-Length itself, before Baton: no body to shape.
  if (request.api && answer.status >= 400 && request.method !== "HEAD" && !request.oddLength) {
    const mcp = request.path.startsWith("/api/mcp");
    if (!isApiErrorShape(answer.text) && !(mcp && isJsonRpcError(answer.text))) return `not the error shape: ${answer.text.slice(0, 200)}`;
    if (answer.status === 405 && !answer.headers.allow) return "405 without Allow";
  }
  return null;
}

async function fuzz(actors: Actor[], count: number, seed: number): Promise<{ failures: string[]; statuses: Record<number, number> }> {
  const rng = new Rng(seed);
  const targets = fuzzTargets();
  const base = new URL(world.server.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  // A writer's token revoking itself (`baton logout`) leaves the rest of its run at 401: where the seeded
  // sequence puts that request early (it moves whenever a route is added), nothing gets past the guards.
  const revokesItself = (actor: Actor, request: FuzzRequest) => !actor.readOnly && request.method === "DELETE" && request.path.startsWith("/api/me/token");
  const requests = Array.from({ length: count }, () => {
    const actor = rng.pick(actors);
    return { actor, request: fuzzRequest(rng, targets, pools, actor.headers(), world.server.url, Number(TEST_MAX_BODY_BYTES)) };
  }).filter(({ actor, request }) => !revokesItself(actor, request));
  const failures: string[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const { actor, request } = requests[next++]!;
      const answer = await send(base, request, agent);
      if (!("error" in answer)) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const problem = judge(actor, request, answer);
      const status = "error" in answer ? "-" : answer.status;
      if (problem) failures.push(`${actor.name} ${request.method} ${request.path.slice(0, 120)} [${request.headers["content-type"] ?? ""}] → ${status}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return { failures, statuses };
}

// Bookkeeping that reading legitimately writes: the write-behind tables, last-used and last-injected times.
// cli_logins: `baton login` asks for a code before anyone is signed in (below); a pending code is nobody's data.
const BOOKKEEPING_TABLES = new Set<string>([...WRITE_BEHIND_TABLES, "auth_sessions", "cli_logins", "__drizzle_migrations"]);
const BOOKKEEPING_COLUMNS = new Set(["last_used_at", "last_injected_at"]);

/** A hash of every stored row (or only cy's and beta's), bookkeeping aside. */
async function checksum(only?: { user: string; project: string }): Promise<Record<string, string>> {
  const db = sideClient(world.databaseUrl);
  try {
    const tables = await db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'");
    const sums: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const table = String(name);
      if (BOOKKEEPING_TABLES.has(table)) continue;
      const columns = (await db.execute(`SELECT name FROM pragma_table_info('${table}')`)).rows.map((r) => String(r.name));
      const kept = columns.filter((c) => !BOOKKEEPING_COLUMNS.has(c));
      let where = "";
      const args: string[] = [];
      if (only) {
        const owners = [["user_id", only.user], ["project_id", only.project]].filter(([c]) => columns.includes(c!));
        if (table === "users") owners.push(["id", only.user]);
        if (table === "projects") owners.push(["id", only.project]);
        if (!owners.length) continue;
        where = " WHERE " + owners.map(([c]) => `"${c}" = ?`).join(" OR ");
        args.push(...owners.map(([, v]) => v!));
      }
      const rows = await db.execute({ sql: `SELECT ${kept.map((c) => `"${c}"`).join(", ")} FROM "${table}"${where} ORDER BY 1, 2`, args });
      sums[table] = `${rows.rows.length}:${createHash("sha256").update(JSON.stringify(rows.rows)).digest("hex").slice(0, 16)}`;
    }
    return sums;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  await seedPrivateData();
  cookie = await signInCookie(world.server.url, emailOf("ana"), PASSWORD);
}, 60_000);

describe("the requests issue 13 found answered with 500 or an empty 405", () => {
  it.each(["/api/learnings/%ff", "/api/projects/%C0%AE%C0%AE/handoffs", "/api/sessions/x%/claim"])("%s is a 400 in the error shape", async (path) => {
    const res = await world.as("ana")("GET", path);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ ok: false, error: { code: "bad_request", message: expect.any(String) } });
  });

  // Read leniently, these were answered about text nobody sent: `%zz` searched as itself, `%E0%A4` as U+FFFD.
  it.each(["/api/learnings?q=%zz", "/api/context?q=%E0%A4", "/api/context/prompt?sessionId=%zz&q=x", "/api/context?remote=%ED%A0%80", "/api/learnings?q=a&kind=%"])(
    "%s (a bad encoding in the query) is a 400 in the error shape",
    async (path) => {
      const res = await world.as("ana")("GET", path);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ ok: false, error: { code: "bad_request", message: "The URL's query is not valid percent-encoded UTF-8." } });
    },
  );

  it("a query encoded as URLSearchParams writes it is read as before", async () => {
    const res = await world.as("ana")("GET", `/api/learnings?${new URLSearchParams({ q: "50% off ünïcode + more", limit: "5" })}`);
    expect(res.status).toBe(200);
  });

  it("a dashboard URL with a bad encoding is a styled 400 page, signed in or not", async () => {
    for (const headers of [{ cookie }, {}] as Record<string, string>[]) {
      const res = await fetch(`${world.server.url}/projects/%ff`, { headers, redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toContain("text/html");
      const html = await res.text();
      expect(html).toContain("<h1>Bad request</h1>");
      expect(html).toMatch(/<style nonce="[^"]+">/);
    }
  });

  it("a wrong method is a 405 in the error shape with Allow", async () => {
    const res = await world.as("ana")("PUT", "/api/health", {});
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(res.json.error.code).toBe("method_not_allowed");
    const review = await world.as("ana")("GET", "/api/proposals/review");
    expect(review.headers.get("allow")).toBe("OPTIONS, POST");
  });

  it("methods Next.js cannot take: TRACE is a 405 with Allow, TRACK (unknown to Node's parser) a 400, both in the error shape", async () => {
    const base = new URL(world.server.url);
    const agent = new http.Agent();
    const trace = await send(base, { method: "TRACE", path: "/api/health", headers: {}, api: true }, agent);
    const track = await send(base, { method: "TRACK", path: "/api/health", headers: {}, api: true }, agent);
    const page = await send(base, { method: "TRACE", path: "/projects", headers: {}, api: false }, agent);
    agent.destroy();
    for (const answer of [trace, track, page]) expect("status" in answer && isApiErrorShape(answer.text), JSON.stringify(answer)).toBe(true);
    expect(trace).toMatchObject({ status: 405, headers: { allow: "GET, HEAD, OPTIONS" } });
    expect(track).toMatchObject({ status: 400 });
    expect(page).toMatchObject({ status: 405, headers: { allow: "GET, HEAD, POST" } });
  });

  it("/api itself is a 404 in the error shape", async () => {
    const res = await world.as("ana")("GET", "/api");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });

  it("a form posted to a page that does not parse is a 400, not a 500", async () => {
    const res = await fetch(`${world.server.url}/sign-in`, { method: "POST", headers: { "content-type": "multipart/form-data; boundary=zz" }, body: "garbage" });
    expect(res.status).toBe(400);
  });
});

describe("fuzzing every route and page", () => {
  it(`${READ_ONLY_REQUESTS} requests of read-only actors: no 5xx, the error shape, no leak, nothing written`, async () => {
    const before = await checksum();
    const { failures, statuses } = await fuzz(READ_ONLY_ACTORS, READ_ONLY_REQUESTS, SEED);
    expect(failures.slice(0, 25), `${failures.length} failures; statuses ${JSON.stringify(statuses)}`).toEqual([]);
    expect(await checksum()).toEqual(before);
    // The run reached past the guards, not just into them. (One in 25: with the invitation routes, more
    // of the seeded requests go to routes a read-only actor is refused, 37 of 800 answered 200.)
    expect(statuses[200]).toBeGreaterThan(READ_ONLY_REQUESTS / 25);
  }, 120_000);

  it(`${WRITER_REQUESTS} requests of other users' writers: no 5xx, the error shape, no leak, cy's data intact`, async () => {
    const before = await checksum({ user: ids.cy, project: ids.beta });
    expect(Object.keys(before).length).toBeGreaterThan(5);
    const { failures, statuses } = await fuzz(WRITERS, WRITER_REQUESTS, SEED + 1);
    expect(failures.slice(0, 25), `${failures.length} failures; statuses ${JSON.stringify(statuses)}`).toEqual([]);
    expect(await checksum({ user: ids.cy, project: ids.beta })).toEqual(before);
    // The run reached past the guards: answered 2xx, writes among them. (It asked for a 201 once; whether
    // the seeded sequence makes a valid create moves with every route added: 0 of 1,200 after issue 27's.)
    const passed = (statuses[200] ?? 0) + (statuses[201] ?? 0) + (statuses[204] ?? 0);
    expect(passed, `statuses ${JSON.stringify(statuses)}`).toBeGreaterThan(WRITER_REQUESTS / 25);
    expect((statuses[201] ?? 0) + (statuses[204] ?? 0), `statuses ${JSON.stringify(statuses)}`).toBeGreaterThan(0);
  }, 180_000);
});
