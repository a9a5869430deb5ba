import { createClient } from "@libsql/client";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { addMember, createProject, createUserWithToken, tableCounts } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";

// One real server on a real database file. ana owns alpha and gamma (bo member, vi viewer of alpha);
// cy owns beta, which nobody else may see.
let server: RunningServer;
const tmp = tempDir();
const databaseUrl = `file:${tmp.dir}/mcp.db`;
const tokens: Record<string, string> = {};
const as = (who: string) => apiClient(server.url, tokens[who]);
const clients: Client[] = [];

const WRITING_TOOLS = ["pickup_session", "propose_learning", "set_task_memory", "write_handoff"];
const READING_TOOLS = ["get_task_memory", "search_learnings"];
const TEMPLATES = [
  "baton://context/{project}",
  "baton://handoff/{project}/latest",
  "baton://memory/{project}/active",
  "baton://memory/{project}/{taskId}",
  "baton://session/{id}",
];

type Era = "legacy" | "auto";

/** The official client over Streamable HTTP, with the token as a Bearer header (as .mcp.json sends it). */
async function connect(who: string, era: Era = "legacy"): Promise<Client> {
  const client = new Client({ name: "baton-test", version: "1.0.0" }, { versionNegotiation: { mode: era } });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const mcp: Record<string, Client> = {};
const text = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const call = (who: string, name: string, args: Record<string, unknown>) => mcp[who]!.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const readText = async (who: string, uri: string) => {
  const res = await mcp[who]!.readResource({ uri });
  const first = res.contents[0]!;
  return { text: "text" in first ? first.text : "", meta: first._meta, mimeType: first.mimeType, count: res.contents.length };
};
const listedUris = async (who: string) => (await mcp[who]!.listResources()).resources.map((r) => r.uri).sort();

async function sql(query: string, args: (string | number)[] = []) {
  const db = createClient({ url: databaseUrl });
  try {
    return (await db.execute({ sql: query, args })).rows;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await startServer({ databaseUrl, env: { BATON_MAX_BODY_BYTES: "65536" } });
  for (const who of ["ana", "bo", "vi", "cy"]) tokens[who] = await createUserWithToken(databaseUrl, `${who}@example.com`);
  for (const slug of ["alpha", "gamma"]) await createProject(server.url, tokens.ana!, slug);
  await createProject(server.url, tokens.cy!, "beta");
  await addMember(databaseUrl, "alpha", "bo@example.com", "member");
  await addMember(databaseUrl, "alpha", "vi@example.com", "viewer");
  tokens.anaRead = await createUserWithToken(databaseUrl, "ana@example.com", { scope: "read", existing: true });
  tokens.anaGamma = await createUserWithToken(databaseUrl, "ana@example.com", { projects: ["gamma"], existing: true });

  const setup: [string, string, string, unknown, number][] = [
    ["ana", "POST", "/api/learnings", { kind: "pattern", content: "Run database migrations before starting the dev server", project: "alpha", confirmed: true, tags: ["db"] }, 201],
    ["ana", "POST", "/api/learnings", { kind: "insight", content: "Gamma deploys go through the staging bucket", project: "gamma", confirmed: true }, 201],
    ["cy", "POST", "/api/learnings", { kind: "insight", content: "Beta secret: migrations run from the ops box", project: "beta", confirmed: true }, 201],
    ["ana", "POST", "/api/projects/alpha/handoffs", { markdown: "Did: login form.\nNext: token revoke.\n", branch: "main", sessionId: "h1" }, 201],
    ["cy", "POST", "/api/projects/beta/handoffs", { markdown: "Beta's handoff" }, 201],
    ["ana", "PUT", "/api/projects/alpha/tasks/task-368/memory", { markdown: "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n" }, 200],
    ["ana", "PUT", "/api/projects/alpha/active-task", { taskId: "task-368" }, 200],
    ["cy", "PUT", "/api/projects/beta/tasks/task-9/memory", { markdown: "beta memory" }, 200],
    ["cy", "PUT", "/api/projects/beta/active-task", { taskId: "task-9" }, 200],
    ["ana", "POST", "/api/projects/alpha/sessions", { markdown: "---\nid: s-low\npriority: low\n---\nLow priority work." }, 201],
    ["ana", "POST", "/api/projects/alpha/sessions", { markdown: "---\nid: s-high\npriority: high\nspecs: [docs/spec.md]\nfiles: [lib/a.ts]\n---\nHigh priority work." }, 201],
    ["ana", "POST", "/api/projects/alpha/sessions", { markdown: "---\nid: s-third\n---\nThird." }, 201],
    ["cy", "POST", "/api/projects/beta/sessions", { markdown: "---\nid: s-beta\n---\nBeta work." }, 201],
  ];
  for (const [who, method, path, body, status] of setup) {
    const res = await as(who)(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  }
  for (const who of ["ana", "anaRead", "anaGamma", "bo", "vi", "cy"]) mcp[who] = await connect(who);
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.stop();
  tmp.remove();
});

describe("connecting", () => {
  it.each<Era>(["legacy", "auto"])("initializes over Streamable HTTP (%s protocol negotiation) and names the server", async (era) => {
    const client = await connect("ana", era);
    expect(client.getProtocolEra()).toBe(era === "auto" ? "modern" : "legacy");
    expect(client.getServerVersion()?.name).toBe("baton");
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain("baton://context/{project}");
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...READING_TOOLS, ...WRITING_TOOLS].sort());
  });

  it("the 2026-07-28 era serves the same resources, tools and refusals", async () => {
    const modern = await connect("anaGamma", "auto");
    expect((await modern.listResources()).resources.map((r) => r.uri)).toEqual(["baton://context/gamma"]);
    expect((await modern.readResource({ uri: "baton://context/gamma" })).contents[0]).toMatchObject({ mimeType: "text/plain" });
    await expect(modern.readResource({ uri: "baton://context/alpha" })).rejects.toThrow(/may not touch the project "alpha"/);
    const refused = (await modern.callTool({ name: "propose_learning", arguments: { kind: "insight", content: "x", project: "alpha" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^forbidden/);
    const readOnly = await connect("anaRead", "auto");
    await expect(readOnly.callTool({ name: "write_handoff", arguments: { project: "alpha", markdown: "x" } })).rejects.toThrow(/write_handoff/);
  });

  it("tells a read token that the writing tools are not offered", () => {
    expect(mcp.anaRead!.getInstructions()).toMatch(/read scope.*not offered/);
    expect(mcp.ana!.getInstructions()).toContain("may read and write");
  });
});

describe("HTTP edge: before any MCP handling", () => {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  const post = (headers: Record<string, string>, body = initialize) =>
    fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    });

  it.each<{ name: string; headers: Record<string, string>; token?: boolean; status: number; code: string }>([
    { name: "no token", headers: {}, status: 401, code: "unauthorized" },
    { name: "an unknown token", headers: { authorization: "Bearer baton_nope" }, status: 401, code: "unauthorized" },
    { name: "not a Bearer header", headers: { authorization: "Basic YW5hOnB3" }, status: 401, code: "unauthorized" },
    { name: "a foreign browser Origin, even with a good token", headers: { origin: "https://evil.example" }, token: true, status: 403, code: "forbidden" },
    { name: "the opaque null Origin", headers: { origin: "null" }, token: true, status: 403, code: "forbidden" },
    { name: "a foreign Origin and no token", headers: { origin: "http://evil.example" }, status: 403, code: "forbidden" },
  ])("$name → $status in the API's error shape", async ({ headers, token, status, code }) => {
    const res = await post({ ...(token ? { authorization: `Bearer ${tokens.ana}` } : {}), ...headers });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ ok: false, error: { code, message: expect.any(String) } });
    if (status === 401) expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("this server's own Origin, and no Origin at all (CLI clients), are served", async () => {
    for (const headers of [{ origin: server.url }, {}] as Record<string, string>[]) {
      const res = await post({ authorization: `Bearer ${tokens.ana}`, ...headers });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('"serverInfo"');
    }
  });

  it("a body over BATON_MAX_BODY_BYTES → 413, a NUL character → 400, nothing stored", async () => {
    const before = await tableCounts(databaseUrl);
    const call = (args: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "propose_learning", arguments: args } });
    const big = await post({ authorization: `Bearer ${tokens.ana}` }, call({ kind: "insight", content: "x".repeat(70_000) }));
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe("payload_too_large");
    const nul = await post({ authorization: `Bearer ${tokens.ana}` }, call({ kind: "insight", content: "cut\u0000here" }));
    expect(nul.status).toBe(400);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it("GET and DELETE (2025 session operations) are answered by the stateless handler, not the catch-all", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${server.url}/api/mcp`, { method, headers: { authorization: `Bearer ${tokens.ana}`, accept: "text/event-stream" } });
      expect(res.status, method).toBe(405);
    }
    const anonymous = await fetch(`${server.url}/api/mcp`, { method: "GET" });
    expect(anonymous.status).toBe(401);
  });

  it("the client refuses to connect without a valid token", async () => {
    tokens.bogus = "baton_not-a-real-token";
    await expect(connect("bogus")).rejects.toThrow();
  });
});

describe("resources", () => {
  it("lists the five templates", async () => {
    const { resourceTemplates } = await mcp.ana!.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(TEMPLATES);
    for (const t of resourceTemplates) expect(t.description?.length).toBeGreaterThan(40);
  });

  it.each([
    {
      who: "ana",
      uris: [
        "baton://context/alpha",
        "baton://context/gamma",
        "baton://handoff/alpha/latest",
        "baton://memory/alpha/active",
        "baton://memory/alpha/task-368",
        "baton://session/s-high",
        "baton://session/s-low",
        "baton://session/s-third",
      ],
    },
    { who: "anaGamma", uris: ["baton://context/gamma"] },
    // bo is a member of alpha without an active task of his own.
    { who: "bo", uris: ["baton://context/alpha", "baton://handoff/alpha/latest", "baton://session/s-high", "baton://session/s-low", "baton://session/s-third"] },
    { who: "cy", uris: ["baton://context/beta", "baton://handoff/beta/latest", "baton://memory/beta/active", "baton://memory/beta/task-9", "baton://session/s-beta"] },
  ])("$who is listed exactly the resources of the projects the token may read", async ({ who, uris }) => {
    expect(await listedUris(who)).toEqual([...uris].sort());
  });

  it("the context resource is the text GET /api/context?format=text returns for the same project", async () => {
    const served = "SELECT count(*) AS n FROM context_log l JOIN projects p ON p.id = l.project_id WHERE p.slug = 'alpha'";
    const logged = async () => Number((await sql(served))[0]!.n);
    const loggedBefore = await logged();
    const before = await as("ana")("GET", "/api/context?project=alpha&format=text");
    const viaMcp = await readText("ana", "baton://context/alpha");
    const after = await as("ana")("GET", "/api/context?project=alpha&format=text");
    expect(before.status).toBe(200);
    // Relative times ("3 min ago") may tick between the calls; one of the two matches byte for byte.
    expect([before.text, after.text]).toContain(viaMcp.text);
    expect(viaMcp.text).toContain("task-368");
    expect(viaMcp.text).not.toContain("Beta secret");
    expect(viaMcp.mimeType).toBe("text/plain");
    // The served-context bookkeeping (written in batches) counts the MCP read as the route counts its own.
    for (let i = 0; i < 100 && (await logged()) < loggedBefore + 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await logged()).toBe(loggedBefore + 3);
  });

  it.each([
    { uri: "baton://memory/alpha/active", expected: "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n", meta: { taskId: "task-368", project: "alpha" } },
    { uri: "baton://memory/alpha/task-368", expected: "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n", meta: { taskId: "task-368" } },
    { uri: "baton://handoff/alpha/latest", expected: "Did: login form.\nNext: token revoke.\n", meta: { branch: "main", sessionId: "h1", author: "ana" } },
    { uri: "baton://session/s-high", expected: "---\nid: s-high\npriority: high\nspecs: [docs/spec.md]\nfiles: [lib/a.ts]\n---\nHigh priority work.", meta: { status: "todo", specs: ["docs/spec.md"] } },
  ])("reads $uri: the stored markdown byte for byte, facts in _meta", async ({ uri, expected, meta }) => {
    const res = await readText("ana", uri);
    expect(res.count).toBe(1);
    expect(res.text).toBe(expected);
    expect(res.mimeType).toBe("text/markdown");
    expect(res.meta).toMatchObject(meta);
  });

  it("reading a session document does not claim it", async () => {
    await readText("ana", "baton://session/s-third");
    expect((await sql("SELECT status FROM session_docs WHERE id = ?", ["s-third"]))[0]!.status).toBe("todo");
  });

  it.each([
    { who: "ana", uri: "baton://context/beta", error: /No project "beta"/ },
    { who: "ana", uri: "baton://memory/beta/active", error: /No project "beta"/ },
    { who: "ana", uri: "baton://memory/beta/task-9", error: /No project "beta"/ },
    { who: "ana", uri: "baton://handoff/beta/latest", error: /No project "beta"/ },
    { who: "ana", uri: "baton://session/s-beta", error: /No session document "s-beta"/ },
    { who: "anaGamma", uri: "baton://context/alpha", error: /forbidden: This token may not touch the project "alpha"/ },
    { who: "anaGamma", uri: "baton://handoff/alpha/latest", error: /may not touch the project "alpha"/ },
    { who: "anaGamma", uri: "baton://session/s-low", error: /may not touch the project "alpha"/ },
    { who: "bo", uri: "baton://memory/alpha/active", error: /no active task in "alpha"/ },
    { who: "ana", uri: "baton://memory/alpha/task-404", error: /No memory for task "task-404"/ },
    { who: "ana", uri: "baton://handoff/gamma/latest", error: /No handoff in "gamma"/ },
    { who: "ana", uri: "baton://memory/alpha/.hidden", error: /task id/ },
    { who: "ana", uri: "baton://memory/alpha/..", error: /not found/i },
    { who: "ana", uri: "baton://context/Not_A_Slug", error: /project slug|No project/ },
    { who: "ana", uri: "baton://nothing/here", error: /not found/i },
  ])("$who cannot read $uri: an MCP error, not a crash", async ({ who, uri, error }) => {
    await expect(mcp[who]!.readResource({ uri })).rejects.toThrow(error);
  });
});

describe("tools", () => {
  it("each tool has a useful description and an object input schema", async () => {
    const { tools } = await mcp.ana!.listTools();
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(120);
      expect(tool.inputSchema.type).toBe("object");
    }
    const search = tools.find((t) => t.name === "search_learnings")!;
    expect(search.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["query", "kind", "project", "limit"]));
  });

  it("search_learnings finds by full text, within what the token may read", async () => {
    const found = await call("ana", "search_learnings", { query: "migrations" });
    expect(found.isError).toBeFalsy();
    expect(text(found)).toContain("Run database migrations before starting the dev server");
    expect(text(found)).not.toContain("Beta secret");
    expect(found.structuredContent).toMatchObject({ ok: true, items: [{ project: "alpha", kind: "pattern" }], nextCursor: null });

    const recent = await call("anaGamma", "search_learnings", {});
    expect(text(recent)).toContain("Gamma deploys");
    expect(text(recent)).not.toContain("Run database migrations");
    expect(text(await call("cy", "search_learnings", { query: "migrations" }))).toContain("Beta secret");
  });

  it("propose_learning stores a pending proposal; a near-duplicate raises its confidence instead", async () => {
    const first = await call("ana", "propose_learning", { kind: "pattern", content: "Prefer server actions for dashboard mutations", project: "alpha", confidence: 0.6 });
    expect(first.isError, text(first)).toBeFalsy();
    expect(text(first)).toMatch(/^Proposed for review/);
    const id = (first.structuredContent as { proposal: { id: string } }).proposal.id;
    const again = await call("bo", "propose_learning", { kind: "pattern", content: "Prefer server actions for dashboard mutations.", project: "alpha", confidence: 0.6 });
    expect(text(again)).toContain(`Merged into pending proposal ${id}`);
    const rows = await sql("SELECT status, source, merged_count, confidence FROM proposals WHERE content LIKE 'Prefer server actions%'");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", source: "mcp", merged_count: 1 });
    expect(Number(rows[0]!.confidence)).toBeGreaterThan(0.6);

    const known = await call("ana", "propose_learning", { kind: "pattern", content: "Run database migrations before starting the dev server", project: "alpha" });
    expect(text(known)).toMatch(/^Already known, nothing stored/);
  });

  it("write_handoff stores the handoff that the next session's latest handoff returns", async () => {
    const markdown = "## Did\n- revoke button  \n\n## Next\n- tests\n";
    const res = await call("bo", "write_handoff", { project: "alpha", markdown, branch: "feat/revoke", sessionId: "mcp-1" });
    expect(res.isError, text(res)).toBeFalsy();
    expect(text(res)).toContain("Handoff saved in alpha on branch feat/revoke, by bo");
    const latest = await as("ana")("GET", "/api/projects/alpha/handoffs/latest?branch=feat/revoke");
    expect(latest.json.handoff).toMatchObject({ markdown, sessionId: "mcp-1", author: "bo" });
    const replaced = await call("bo", "write_handoff", { project: "alpha", markdown: "fuller", sessionId: "mcp-1" });
    expect(text(replaced)).toContain("Handoff of session mcp-1 replaced");
    expect(await sql("SELECT count(*) AS n FROM handoffs WHERE session_id = 'mcp-1'")).toEqual([expect.objectContaining({ n: 1 })]);
  });

  it("get_task_memory reads the active task by default, or the one named", async () => {
    const active = await call("ana", "get_task_memory", { project: "alpha" });
    expect(active.isError, text(active)).toBeFalsy();
    expect(text(active)).toContain("Memory of task-368 (your active task) in alpha");
    expect(text(active)).toContain("- [ ] revoke button");
    expect(active.structuredContent).toMatchObject({ active: true, memory: { taskId: "task-368", project: "alpha" } });
    const named = await call("vi", "get_task_memory", { project: "alpha", taskId: "task-368" });
    expect(named.structuredContent).toMatchObject({ active: false, memory: { markdown: "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n" } });
  });

  it("set_task_memory replaces the memory, of the active task by default", async () => {
    const res = await call("ana", "set_task_memory", { project: "alpha", markdown: "# Token revocation\n\n- [x] list tokens\n- [x] revoke button\n" });
    expect(res.isError, text(res)).toBeFalsy();
    const stored = await as("ana")("GET", "/api/projects/alpha/tasks/task-368/memory");
    expect(stored.json.memory.markdown).toBe("# Token revocation\n\n- [x] list tokens\n- [x] revoke button\n");
    expect((await readText("ana", "baton://memory/alpha/active")).text).toContain("- [x] revoke button");

    const other = await call("bo", "set_task_memory", { project: "alpha", taskId: "task-400", markdown: "" });
    expect(other.isError, text(other)).toBeFalsy();
    expect((await as("bo")("GET", "/api/projects/alpha/tasks/task-400/memory")).json.memory.markdown).toBe("");
  });

  it("pickup_session claims the next queued document by priority, or one by id, and nobody gets it twice", async () => {
    const next = await call("bo", "pickup_session", { project: "alpha" });
    expect(next.isError, text(next)).toBeFalsy();
    expect(text(next)).toContain("Claimed session s-high in alpha");
    expect(text(next)).toContain("- spec: docs/spec.md\n- file: lib/a.ts");
    expect(text(next)).toContain("High priority work.");
    expect((await sql("SELECT status FROM session_docs WHERE id = 's-high'"))[0]!.status).toBe("doing");

    const taken = await call("ana", "pickup_session", { id: "s-high" });
    expect(taken.isError).toBe(true);
    expect(text(taken)).toMatch(/^conflict: Session "s-high" is already claimed by bo/);

    const byId = await call("ana", "pickup_session", { id: "s-low" });
    expect(text(byId)).toContain("Claimed session s-low in alpha");
    // Claimed documents leave bo's listing of the queue but stay listed for their holder.
    expect(await listedUris("bo")).toContain("baton://session/s-high");
    expect(await listedUris("bo")).not.toContain("baton://session/s-low");
  });

  it.each([
    { who: "ana", name: "search_learnings", args: { project: "beta" }, error: /^not_found: No project "beta"/ },
    { who: "ana", name: "search_learnings", args: { limit: 0 }, error: /limit/ },
    { who: "ana", name: "search_learnings", args: { kind: "rumour" }, error: /kind/ },
    { who: "ana", name: "propose_learning", args: { kind: "insight" }, error: /content/ },
    { who: "ana", name: "propose_learning", args: { kind: "insight", content: "   " }, error: /content/ },
    { who: "ana", name: "propose_learning", args: { kind: "insight", content: "x", confidence: 2 }, error: /confidence/ },
    { who: "ana", name: "propose_learning", args: { kind: "insight", content: "Beta thing", project: "beta" }, error: /^not_found/ },
    { who: "vi", name: "propose_learning", args: { kind: "insight", content: "Viewer idea", project: "alpha" }, error: /^forbidden: Your role in "alpha" \(viewer\)/ },
    { who: "anaGamma", name: "propose_learning", args: { kind: "insight", content: "Alpha idea", project: "alpha" }, error: /^forbidden: This token may not touch/ },
    { who: "ana", name: "write_handoff", args: { project: "alpha", markdown: "  \n" }, error: /markdown is empty/ },
    { who: "ana", name: "write_handoff", args: { project: "alpha" }, error: /markdown/ },
    { who: "ana", name: "write_handoff", args: { project: "beta", markdown: "hi" }, error: /^not_found/ },
    { who: "vi", name: "write_handoff", args: { project: "alpha", markdown: "hi" }, error: /^forbidden/ },
    { who: "ana", name: "get_task_memory", args: { project: "gamma" }, error: /^not_found: You have no active task in "gamma"/ },
    { who: "ana", name: "get_task_memory", args: { project: "alpha", taskId: "../etc" }, error: /task id/i },
    { who: "ana", name: "get_task_memory", args: { project: "beta", taskId: "task-9" }, error: /^not_found/ },
    { who: "bo", name: "set_task_memory", args: { project: "alpha", markdown: "x" }, error: /no active task/ },
    { who: "ana", name: "set_task_memory", args: { project: "alpha", taskId: "a/b", markdown: "x" }, error: /task id/i },
    { who: "vi", name: "set_task_memory", args: { project: "alpha", taskId: "task-1", markdown: "x" }, error: /^forbidden/ },
    { who: "ana", name: "pickup_session", args: {}, error: /Give id .* or project/ },
    { who: "ana", name: "pickup_session", args: { id: "s-beta" }, error: /^not_found/ },
    { who: "ana", name: "pickup_session", args: { project: "gamma" }, error: /^not_found: Nothing is queued in "gamma"/ },
    { who: "ana", name: "pickup_session", args: { id: "no such/id" }, error: /session id|letters, digits/ },
  ])("$name($args) by $who → isError with a clear text, nothing stored", async ({ who, name, args, error }) => {
    const before = await tableCounts(databaseUrl);
    const res = await call(who, name, args);
    expect(res.isError, text(res)).toBe(true);
    expect(text(res)).toMatch(error);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it("a read token is not offered the writing tools, and calling one is an MCP error that writes nothing", async () => {
    const names = (await mcp.anaRead!.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(READING_TOOLS);
    const before = await tableCounts(databaseUrl);
    for (const name of WRITING_TOOLS) {
      await expect(mcp.anaRead!.callTool({ name, arguments: { project: "alpha", kind: "insight", content: "x", markdown: "x" } })).rejects.toThrow(
        new RegExp(`Tool ${name} not found`),
      );
    }
    expect(await tableCounts(databaseUrl)).toEqual(before);
    const read = await call("anaRead", "get_task_memory", { project: "alpha" });
    expect(read.isError, text(read)).toBeFalsy();
  });

  it("an unknown tool is a protocol error, and the server keeps serving", async () => {
    await expect(mcp.ana!.callTool({ name: "drop_tables", arguments: {} })).rejects.toThrow(/drop_tables/);
    expect((await call("ana", "search_learnings", { query: "migrations" })).isError).toBeFalsy();
    expect(server.output()).not.toMatch(/unexpected error|Unhandled|TypeError/);
  });
});
