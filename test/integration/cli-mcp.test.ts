import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createClient } from "@libsql/client";
import { Client, type CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSseEvents } from "../../cli/src/mcp/read-sse-events";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { createProject, createUserWithToken } from "../support/fixtures";
import { cleanEnv, freePort, ROOT, startServer, tempDir, type RunningServer } from "../support/server";

// `baton mcp` between the official MCP client (over stdio) and the real server: ana owns alpha, cy
// owns beta; anaRead is ana's read token. Answer shapes the real server never sends (JSON bodies,
// chunked or lingering event streams, redirects, 500s) are played by a small stub server.
let server: RunningServer;
const tmp = tempDir("baton-cli-mcp-");
const databaseUrl = `file:${tmp.dir}/mcp.db`;
const home = path.join(tmp.dir, "home");
const BATON = path.join(ROOT, "cli/bin/baton.mjs");
const tokens: Record<string, string> = {};
const clients: Client[] = [];

const READING_TOOLS = ["get_task_memory", "search_learnings"];
const ALL_TOOLS = [...READING_TOOLS, "pickup_session", "propose_learning", "set_task_memory", "write_handoff"].sort();

/** The bridge's environment: nothing from the outer shell's Baton settings, a home of its own. */
function bridgeEnv(over: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string | undefined> = { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), PATH: process.env.PATH, ...over };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
const envOf = (who: string, url = server.url) => bridgeEnv({ BATON_URL: url, BATON_TOKEN: tokens[who] ?? who });

/** The official client talking to `node cli/bin/baton.mjs mcp` over its stdin and stdout. */
async function connect(env: Record<string, string>, era: "legacy" | "auto" = "legacy") {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BATON, "mcp"], env, cwd: home, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "baton-stdio-test", version: "1.0.0" }, { versionNegotiation: { mode: era } });
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Bridge = { send: (message: unknown) => void; end: () => void; stdout: () => string; done: Promise<{ code: number | null; messages: Message[]; stderr: string; ms: number }> };

/** The bridge driven by hand, line by line; every line it prints must be JSON-RPC. */
function spawnBridge(env: Record<string, string>, args: string[] = []): Bridge {
  const started = performance.now();
  const child = spawn(process.execPath, [BATON, "mcp", ...args], { cwd: home, env: { ...cleanEnv(), ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const done = new Promise<{ code: number | null; messages: Message[]; stderr: string; ms: number }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const lines = stdout.split("\n").filter((line) => line !== "");
      const messages = lines.map((line) => JSON.parse(line) as Message);
      for (const m of messages) expect(m.jsonrpc, `stdout line ${JSON.stringify(m)}`).toBe("2.0");
      resolve({ code, messages, stderr, ms: performance.now() - started });
    });
  });
  return {
    send: (message) => child.stdin.write(typeof message === "string" ? message : `${JSON.stringify(message)}\n`),
    end: () => child.stdin.end(),
    stdout: () => stdout,
    done,
  };
}

async function runBridge(env: Record<string, string>, messages: unknown[]) {
  const bridge = spawnBridge(env);
  for (const m of messages) bridge.send(m);
  bridge.end();
  return bridge.done;
}

const initialize = (id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const request = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method, params });
const text = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("");

async function sql(query: string) {
  const db = createClient({ url: databaseUrl });
  try {
    return (await db.execute(query)).rows;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  mkdirSync(home, { recursive: true });
  server = await startServer({ databaseUrl });
  for (const who of ["ana", "cy"]) tokens[who] = await createUserWithToken(databaseUrl, `${who}@example.com`);
  tokens.anaRead = await createUserWithToken(databaseUrl, "ana@example.com", { scope: "read", existing: true });
  await createProject(server.url, tokens.ana!, "alpha");
  await createProject(server.url, tokens.cy!, "beta");
  const setup: [string, string, string, unknown][] = [
    ["ana", "POST", "/api/learnings", { kind: "pattern", content: "Run database migrations before starting the dev server", project: "alpha", confirmed: true }],
    ["cy", "POST", "/api/learnings", { kind: "insight", content: "Beta secret: migrations run from the ops box", project: "beta", confirmed: true }],
    ["ana", "POST", "/api/projects/alpha/handoffs", { markdown: "Did: login form.\nNext: token revoke.\n", branch: "main" }],
    ["ana", "PUT", "/api/projects/alpha/tasks/task-7/memory", { markdown: "# Revoke tokens\n\n- [ ] revoke button\n" }],
    ["ana", "PUT", "/api/projects/alpha/active-task", { taskId: "task-7" }],
  ];
  for (const [who, method, route, body] of setup) {
    const res = await apiClient(server.url, tokens[who])(method, route, body);
    expect(res.status, `${method} ${route}: ${res.text}`).toBeLessThan(300);
  }
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.stop();
  tmp.remove();
});

describe("baton mcp with the official MCP client over stdio", () => {
  it.each(["legacy", "auto"] as const)("initializes (%s version negotiation), names the server and lists a write token's six tools", async (era) => {
    const { client } = await connect(envOf("ana"), era);
    expect(client.getProtocolEra()).toBe(era === "auto" ? "modern" : "legacy");
    expect(client.getServerVersion()?.name).toBe("baton");
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain("may read and write");
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
  });

  it("a read token is offered search_learnings and get_task_memory only, and a writing tool is refused", async () => {
    const { client } = await connect(envOf("anaRead"));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(READING_TOOLS);
    await expect(client.callTool({ name: "propose_learning", arguments: { kind: "insight", content: "x", project: "alpha" } })).rejects.toThrow(
      /Tool propose_learning not found/,
    );
    expect(((await client.callTool({ name: "get_task_memory", arguments: { project: "alpha" } })) as CallToolResult).isError).toBeFalsy();
  });

  it("lists the token's resources and the five templates", async () => {
    const { client } = await connect(envOf("ana"));
    expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual([
      "baton://context/alpha",
      "baton://handoff/alpha/latest",
      "baton://memory/alpha/active",
      "baton://memory/alpha/task-7",
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(5);
  });

  it("baton://context/{project} reads the same text as GET /api/context?format=text", async () => {
    const { client } = await connect(envOf("ana"));
    const get = () => apiClient(server.url, tokens.ana)("GET", "/api/context?project=alpha&format=text");
    const before = await get();
    const read = await client.readResource({ uri: "baton://context/alpha" });
    const after = await get();
    expect(before.status).toBe(200);
    const first = read.contents[0]!;
    const viaBridge = "text" in first ? first.text : "";
    // Relative times ("3 min ago") may tick between the calls; one of the two matches byte for byte.
    expect([before.text, after.text]).toContain(viaBridge);
    expect(viaBridge).toContain("Run database migrations");
    expect(viaBridge).not.toContain("Beta secret");
    expect((await client.readResource({ uri: "baton://handoff/alpha/latest" })).contents[0]).toMatchObject({ text: "Did: login form.\nNext: token revoke.\n" });
    await expect(client.readResource({ uri: "baton://context/beta" })).rejects.toThrow(/No project "beta"/);
  });

  it("search_learnings finds within what the token may read; propose_learning stores a pending proposal", async () => {
    const { client } = await connect(envOf("ana"));
    const found = (await client.callTool({ name: "search_learnings", arguments: { query: "migrations" } })) as CallToolResult;
    expect(found.isError, text(found)).toBeFalsy();
    expect(text(found)).toContain("Run database migrations before starting the dev server");
    expect(text(found)).not.toContain("Beta secret");

    const proposed = (await client.callTool({
      name: "propose_learning",
      arguments: { kind: "pattern", content: "Bridge stdio clients through baton mcp", project: "alpha" },
    })) as CallToolResult;
    expect(proposed.isError, text(proposed)).toBeFalsy();
    expect(text(proposed)).toMatch(/^Proposed for review/);
    expect(await sql("SELECT status, source FROM proposals WHERE content = 'Bridge stdio clients through baton mcp'")).toEqual([
      expect.objectContaining({ status: "pending", source: "mcp" }),
    ]);
  });

  it("a bad tool argument is an isError result, an unknown tool a protocol error, and the bridge keeps serving", async () => {
    const { client, stderr } = await connect(envOf("ana"));
    const bad = (await client.callTool({ name: "search_learnings", arguments: { kind: "rumour" } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/kind/);
    const missing = (await client.callTool({ name: "propose_learning", arguments: { kind: "insight" } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/content/);
    await expect(client.callTool({ name: "drop_tables", arguments: {} })).rejects.toThrow(/drop_tables/);
    expect(((await client.callTool({ name: "search_learnings", arguments: { query: "migrations" } })) as CallToolResult).isError).toBeFalsy();
    expect(stderr()).not.toMatch(/TypeError|Unhandled/);
  });

  it("runs requests concurrently and gives every answer to its own request", async () => {
    const { client } = await connect(envOf("ana"));
    const uris = ["baton://memory/alpha/task-7", "baton://handoff/alpha/latest", "baton://memory/alpha/active"];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? client.readResource({ uri: uris[i % 3]! }).then((r) => ({ i, text: "text" in r.contents[0]! ? r.contents[0].text : "" }))
          : client.callTool({ name: "search_learnings", arguments: { query: i % 4 === 1 ? "migrations" : "nothing-matches-this" } }).then((r) => ({ i, text: text(r as CallToolResult) })),
      ),
    );
    for (const { i, text: got } of results) {
      if (i % 2 === 0) expect(got, `request ${i}`).toBe(uris[i % 3] === "baton://handoff/alpha/latest" ? "Did: login form.\nNext: token revoke.\n" : "# Revoke tokens\n\n- [ ] revoke button\n");
      else if (i % 4 === 1) expect(got, `request ${i}`).toContain("Run database migrations");
      else expect(got, `request ${i}`).not.toContain("Run database migrations");
    }
  });

  it("in the 2026-07-28 era, tool calls and resource reads pass the server's header checks (Mcp-Method, Mcp-Name)", async () => {
    const { client } = await connect(envOf("ana"), "auto");
    expect(client.getProtocolEra()).toBe("modern");
    const found = (await client.callTool({ name: "search_learnings", arguments: { query: "migrations" } })) as CallToolResult;
    expect(text(found)).toContain("Run database migrations");
    expect((await client.readResource({ uri: "baton://memory/alpha/task-7" })).contents[0]).toMatchObject({ text: "# Revoke tokens\n\n- [ ] revoke button\n" });
    await expect(client.readResource({ uri: "baton://context/beta" })).rejects.toThrow(/No project "beta"/);
  });

  it("takes url and token from ~/.config/baton/config.json when the environment has none", async () => {
    const own = path.join(tmp.dir, "home-with-config");
    mkdirSync(path.join(own, ".config/baton"), { recursive: true });
    writeFileSync(path.join(own, ".config/baton/config.json"), JSON.stringify({ url: server.url, token: tokens.anaRead }));
    const { client } = await connect(bridgeEnv({ HOME: own, XDG_CONFIG_HOME: undefined }));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(READING_TOOLS);
  });
});

describe("failures come back as JSON-RPC errors, never as a crash", () => {
  it("a bad token: each request gets a -32000 error naming the 401, notifications get nothing, exit 0", async () => {
    const { code, messages, stderr } = await runBridge(envOf("baton_not-a-real-token"), [initialize(1), initialized, request(2, "tools/list")]);
    expect(code).toBe(0);
    // Requests run concurrently: their answers come in the order they complete.
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2]);
    for (const m of messages) {
      expect(m.error).toMatchObject({ code: -32000, data: { httpStatus: 401, code: "unauthorized" } });
      expect(m.error.message).toMatch(/^Baton refused the token \(HTTP 401 unauthorized\): The token is not valid.*Check BATON_TOKEN/);
    }
    expect(stderr).toMatch(/initialize \(id 1\): Baton refused the token/);
  });

  it("a bad token, seen by the official client: connect fails with the bridge's message", async () => {
    await expect(connect(envOf("baton_not-a-real-token"))).rejects.toThrow(/Baton refused the token \(HTTP 401/);
  });

  it("the server is down: errors saying so, and exit 0 once stdin closes", async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const { code, messages } = await runBridge(envOf("ana", down), [initialize("a"), initialized, request(7, "ping")]);
    expect(code).toBe(0);
    expect(messages).toHaveLength(2);
    expect(messages).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: "a", error: { code: -32000, message: expect.stringMatching(/^Baton is not reachable at .*\/api\/mcp \(ECONNREFUSED\)/), data: { reason: "unreachable" } } },
        { jsonrpc: "2.0", id: 7, error: expect.objectContaining({ code: -32000 }) },
      ]),
    );
    await expect(connect(envOf("ana", down))).rejects.toThrow(/not reachable/);
  });

  it("waits for the requests in flight when stdin ends at once, then exits 0", async () => {
    const { code, messages } = await runBridge(envOf("ana"), [initialize(1), initialized, request(2, "tools/list"), request(3, "resources/read", { uri: "baton://memory/alpha/task-7" })]);
    expect(code).toBe(0);
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3]);
    expect(messages.find((m) => m.id === 3)?.result.contents[0].text).toBe("# Revoke tokens\n\n- [ ] revoke button\n");
  });

  it("forwards a batch (2025-03-26) as one POST and prints each of its answers", async () => {
    const { code, messages } = await runBridge(envOf("ana"), [[request(8, "ping"), initialized, request(9, "ping")]]);
    expect(code).toBe(0);
    expect(messages.sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: "2.0", id: 8, result: {} },
      { jsonrpc: "2.0", id: 9, result: {} },
    ]);
  });

  it("answers lines that are not JSON-RPC itself; blank lines and CRLF are fine", async () => {
    const { code, messages } = await runBridge(envOf("ana"), ["not json\n", "\n", "[]\n", '{"id":4,"method":"ping"}\n', `${JSON.stringify(request(5, "ping"))}\r\n`]);
    expect(code).toBe(0);
    expect(messages).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: "2.0", id: 5, result: {} },
    ]);
  });

  it.each([
    { name: "no server configured", env: {}, args: [], error: /no Baton server configured: set BATON_URL/ },
    { name: "a URL but no token", env: { BATON_URL: "http://127.0.0.1:9" }, args: [], error: /no token for http:\/\/127.0.0.1:9: set BATON_TOKEN/ },
    { name: "an unknown option", env: { BATON_URL: "http://127.0.0.1:9", BATON_TOKEN: "t" }, args: ["--verbose"], error: /--verbose/ },
  ])("$name: one line on stderr, exit 2, nothing on stdout", async ({ env, args, error }) => {
    const res = await runCli(["mcp", ...args], { env: bridgeEnv(env), cwd: home, input: JSON.stringify(initialize()) + "\n" });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(res.stderr).toMatch(error);
  });
});

type Seen = { headers: IncomingHttpHeaders; body: Message; closed: Promise<void> };

/** A stand-in for the server, answering each POST as the test says. */
async function stub(answer: (body: Message, res: ServerResponse, req: IncomingMessage) => void) {
  const seen: Seen[] = [];
  const http = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = JSON.parse(raw) as Message;
      seen.push({ headers: req.headers, body, closed: new Promise((resolve) => res.once("close", () => resolve())) });
      answer(body, res, req);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const result = (id: unknown, value: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id, result: value });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("answer shapes and headers, against a stub server", () => {
  it("sends the token, both Accept types and no Origin; MCP-Protocol-Version from the initialize answer on; forwards JSON bodies", async () => {
    const s = await stub((body, res) => {
      if (!("id" in body)) return res.writeHead(202).end();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(result(body.id, body.method === "initialize" ? { protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "stub", version: "1" } } : {}));
    });
    try {
      const bridge = spawnBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }));
      bridge.send(initialize(1));
      for (let i = 0; i < 250 && !bridge.stdout().includes('"id":1'); i++) await pause(20);
      bridge.send(initialized);
      bridge.send(request(2, "ping"));
      bridge.end();
      const { code, messages } = await bridge.done;
      expect(code).toBe(0);
      expect(messages).toEqual([
        { jsonrpc: "2.0", id: 1, result: expect.objectContaining({ protocolVersion: "2025-03-26" }) },
        { jsonrpc: "2.0", id: 2, result: {} },
      ]);
      const [init, note, ping] = ["initialize", "notifications/initialized", "ping"].map((method) => s.seen.find((x) => x.body.method === method));
      expect(init!.headers).toMatchObject({ authorization: "Bearer tok", accept: "application/json, text/event-stream", "content-type": "application/json" });
      for (const seen of s.seen) expect(seen.headers.origin).toBeUndefined();
      expect(init!.headers["mcp-protocol-version"]).toBeUndefined();
      expect(note!.headers["mcp-protocol-version"]).toBe("2025-03-26");
      expect(ping!.headers["mcp-protocol-version"]).toBe("2025-03-26");
    } finally {
      await s.close();
    }
  });

  it("a 2026-07-28 request carries MCP-Protocol-Version, Mcp-Method and Mcp-Name from its body (Base64 when not plain ASCII)", async () => {
    const s = await stub((body, res) => res.writeHead(200, { "content-type": "application/json" }).end(result(body.id, {})));
    try {
      const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
      await runBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }), [
        request(1, "tools/call", { name: "search_learnings", arguments: {}, _meta: meta }),
        request(2, "resources/read", { uri: "baton://context/ünïcode", _meta: meta }),
      ]);
      const byId = (id: number) => s.seen.find((x) => x.body.id === id)!.headers;
      expect(byId(1)).toMatchObject({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_learnings" });
      expect(byId(2)).toMatchObject({ "mcp-method": "resources/read", "mcp-name": `=?base64?${Buffer.from("baton://context/ünïcode").toString("base64")}?=` });
    } finally {
      await s.close();
    }
  });

  it("reads event streams in odd chunks, forwards a notification that comes before the answer, and does not wait for a stream left open", async () => {
    const s = await stub(async (body, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const stream = `: hello\r\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}\r\n\r\ndata: ${result(body.id, { ok: "yes" })}\r\n\r\n`;
      for (let i = 0; i < stream.length; i += 7) {
        res.write(stream.slice(i, i + 7));
        await pause(1);
      }
      // …and never end the response.
    });
    try {
      const { code, messages, ms } = await runBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }), [request(9, "tools/call", { name: "x" })]);
      expect(code).toBe(0);
      expect(messages).toEqual([
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
        { jsonrpc: "2.0", id: 9, result: { ok: "yes" } },
      ]);
      expect(ms).toBeLessThan(10_000);
    } finally {
      await s.close();
    }
  });

  it.each([
    {
      name: "a 500 with a text body",
      answer: (res: ServerResponse) => res.writeHead(500, { "content-type": "text/plain" }).end("database on fire"),
      error: { code: -32000, message: "Baton refused the request (HTTP 500): database on fire", data: { httpStatus: 500 } },
    },
    {
      name: "a redirect (not followed: it would drop the POST or carry the token elsewhere)",
      answer: (res: ServerResponse) => res.writeHead(308, { location: "https://baton.example/api/mcp" }).end(),
      error: { code: -32000, message: expect.stringMatching(/redirects \(HTTP 308\) to https:\/\/baton.example\/api\/mcp: set BATON_URL/), data: { httpStatus: 308, reason: "redirect" } },
    },
    {
      name: "202 Accepted for a request",
      answer: (res: ServerResponse) => res.writeHead(202).end(),
      error: { code: -32000, message: expect.stringMatching(/sent no answer/), data: { reason: "no_answer" } },
    },
    {
      name: "an HTML page (a wrong BATON_URL)",
      answer: (res: ServerResponse) => res.writeHead(200, { "content-type": "text/html" }).end("<html>hi</html>"),
      error: { code: -32000, message: expect.stringMatching(/text\/html that is not JSON-RPC/), data: { reason: "bad_answer", httpStatus: 200 } },
    },
    {
      name: "an event stream that ends without the answer",
      answer: (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" }).end(": nothing\n\n"),
      error: { code: -32000, message: expect.stringMatching(/ended its event stream without answering/), data: { reason: "no_answer" } },
    },
    {
      name: "a JSON-RPC error with id null (the server could not read the id)",
      answer: (res: ServerResponse) => res.writeHead(400, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request"}}'),
      error: { code: -32600, message: "Bad Request" },
    },
  ])("$name → a JSON-RPC error for the request", async ({ answer, error }) => {
    const s = await stub((_body, res) => answer(res));
    try {
      const { code, messages } = await runBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }), [request(3, "tools/list")]);
      expect(code).toBe(0);
      expect(messages).toEqual([{ jsonrpc: "2.0", id: 3, error }]);
    } finally {
      await s.close();
    }
  });

  it("notifications/cancelled aborts the request's POST, and the cancelled request gets no answer", async () => {
    const s = await stub((body, res) => {
      if (body.method === "tools/call") return res.writeHead(200, { "content-type": "text/event-stream" }).write(": thinking\n\n");
      res.writeHead(202).end();
    });
    try {
      const bridge = spawnBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }));
      bridge.send(request(11, "tools/call", { name: "slow" }));
      for (let i = 0; i < 100 && s.seen.length < 1; i++) await pause(20);
      bridge.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 11, reason: "user" } });
      bridge.end();
      const { code, messages } = await bridge.done;
      expect(code).toBe(0);
      expect(messages).toEqual([]);
      await s.seen[0]!.closed;
    } finally {
      await s.close();
    }
  });
});

describe("readSseEvents", () => {
  const streamOf = (chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    });
  const read = async (chunks: string[]) => {
    const events = [];
    for await (const e of readSseEvents(streamOf(chunks))) events.push(e);
    return events;
  };

  it.each([
    { name: "LF lines", chunks: ["data: a\n\ndata: b\n\n"], events: [{ event: "message", data: "a" }, { event: "message", data: "b" }] },
    { name: "CRLF split across chunks", chunks: ["data: a\r", "\n\r", "\ndata: b\r\n\r\n"], events: [{ event: "message", data: "a" }, { event: "message", data: "b" }] },
    { name: "CR alone", chunks: ["data: a\r\rdata:b\r\r"], events: [{ event: "message", data: "a" }, { event: "message", data: "b" }] },
    { name: "several data lines, comments, ids, event types", chunks: [": hi\nid: 4\nevent: ping\ndata: x\ndata:  y\n\n"], events: [{ event: "ping", data: "x\n y" }] },
    { name: "a last event without its blank line", chunks: ["data: a\n\ndata: b"], events: [{ event: "message", data: "a" }, { event: "message", data: "b" }] },
    { name: "no data, no event", chunks: ["event: x\n\n: only a comment\n\n"], events: [] },
  ])("$name", async ({ chunks, events }) => {
    expect(await read(chunks)).toEqual(events);
  });

  it("a multi-byte character split across chunks", async () => {
    const bytes = new TextEncoder().encode('data: {"t":"é€"}\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i++) controller.enqueue(bytes.subarray(i, i + 1));
        controller.close();
      },
    });
    const events = [];
    for await (const e of readSseEvents(stream)) events.push(e);
    expect(events).toEqual([{ event: "message", data: '{"t":"é€"}' }]);
  });
});
