import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { quoteLines } from "@/lib/context/pack/fence";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { ALL_TOOLS, READING_TOOLS, toolText } from "../support/mcp";
import { initialize, initialized, mcpBridge, request } from "../support/mcp-bridge";
import { freePort } from "../support/server";
import { testWorld } from "../support/world";

/** A resource's text after its heading line: what a teammate wrote, quoted (lib/context/pack/fence.ts). */
function quotedBody(content: unknown): string[] {
  const text = content && typeof content === "object" && "text" in content ? String(content.text) : "";
  return text.split("\n").slice(1);
}

// `baton mcp` between the official MCP client (over stdio) and the real server: ana owns alpha, cy
// owns beta; anaRead is ana's read token. Answer shapes the real server never sends are played by a
// stub server in cli-mcp-stub.test.ts.
const world = testWorld({
  tempPrefix: "baton-cli-mcp-",
  users: ["ana", "cy"],
  projects: { alpha: "ana", beta: "cy" },
  members: [],
  tokens: { anaRead: { user: "ana", scope: "read" } },
});
const home = path.join(world.dir, "home");
const { bridgeEnv, connect, runBridge } = mcpBridge(home);
const envOf = (who: string, url = world.server.url) => bridgeEnv({ BATON_URL: url, BATON_TOKEN: world.tokens[who] ?? who });

beforeAll(async () => {
  const setup: [string, string, string, unknown][] = [
    ["ana", "POST", "/api/learnings", { kind: "pattern", content: "Run database migrations before starting the dev server", project: "alpha", confirmed: true }],
    ["cy", "POST", "/api/learnings", { kind: "insight", content: "Beta secret: migrations run from the ops box", project: "beta", confirmed: true }],
    ["ana", "POST", "/api/projects/alpha/handoffs", { markdown: "Did: login form.\nNext: token revoke.\n", branch: "main" }],
    ["ana", "PUT", "/api/projects/alpha/tasks/task-7/memory", { markdown: "# Revoke tokens\n\n- [ ] revoke button\n" }],
    ["ana", "PUT", "/api/projects/alpha/active-task", { taskId: "task-7" }],
  ];
  for (const [who, method, route, body] of setup) {
    const res = await world.as(who)(method, route, body);
    expect(res.status, `${method} ${route}: ${res.text}`).toBeLessThan(300);
  }
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

  it("lists the token's resources and the six templates", async () => {
    const { client } = await connect(envOf("ana"));
    expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual([
      "baton://context/alpha",
      "baton://handoff/alpha/latest",
      "baton://memory/alpha/active",
      "baton://memory/alpha/task-7",
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toHaveLength(6);
  });

  it("baton://context/{project} reads the same text as GET /api/context?format=text", async () => {
    const { client } = await connect(envOf("ana"));
    const get = () => apiClient(world.server.url, world.tokens.ana)("GET", "/api/context?project=alpha&format=text");
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
    expect(quotedBody((await client.readResource({ uri: "baton://handoff/alpha/latest" })).contents[0])).toEqual(quoteLines("Did: login form.\nNext: token revoke.\n"));
    await expect(client.readResource({ uri: "baton://context/beta" })).rejects.toThrow(/No project "beta"/);
  });

  it("search_learnings finds within what the token may read; propose_learning stores a pending proposal", async () => {
    const { client } = await connect(envOf("ana"));
    const found = (await client.callTool({ name: "search_learnings", arguments: { query: "migrations" } })) as CallToolResult;
    expect(found.isError, toolText(found)).toBeFalsy();
    expect(toolText(found)).toContain("Run database migrations before starting the dev server");
    expect(toolText(found)).not.toContain("Beta secret");

    const proposed = (await client.callTool({
      name: "propose_learning",
      arguments: { kind: "pattern", content: "Bridge stdio clients through baton mcp", project: "alpha" },
    })) as CallToolResult;
    expect(proposed.isError, toolText(proposed)).toBeFalsy();
    expect(toolText(proposed)).toMatch(/^Proposed for review/);
    expect(await world.sql("SELECT status, source FROM proposals WHERE content = 'Bridge stdio clients through baton mcp'")).toEqual([
      expect.objectContaining({ status: "pending", source: "mcp" }),
    ]);
  });

  it("a bad tool argument is an isError result, an unknown tool a protocol error, and the bridge keeps serving", async () => {
    const { client, stderr } = await connect(envOf("ana"));
    const bad = (await client.callTool({ name: "search_learnings", arguments: { kind: "rumour" } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(toolText(bad)).toMatch(/kind/);
    const missing = (await client.callTool({ name: "propose_learning", arguments: { kind: "insight" } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(toolText(missing)).toMatch(/content/);
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
          : client.callTool({ name: "search_learnings", arguments: { query: i % 4 === 1 ? "migrations" : "nothing-matches-this" } }).then((r) => ({ i, text: toolText(r as CallToolResult) })),
      ),
    );
    for (const { i, text: got } of results) {
      if (i % 2 === 0) expect(got.split("\n").slice(1), `request ${i}`).toEqual(quoteLines(uris[i % 3] === "baton://handoff/alpha/latest" ? "Did: login form.\nNext: token revoke.\n" : "# Revoke tokens\n\n- [ ] revoke button\n"));
      else if (i % 4 === 1) expect(got, `request ${i}`).toContain("Run database migrations");
      else expect(got, `request ${i}`).not.toContain("Run database migrations");
    }
  });

  it("in the 2026-07-28 era, tool calls and resource reads pass the server's header checks (Mcp-Method, Mcp-Name)", async () => {
    const { client } = await connect(envOf("ana"), "auto");
    expect(client.getProtocolEra()).toBe("modern");
    const found = (await client.callTool({ name: "search_learnings", arguments: { query: "migrations" } })) as CallToolResult;
    expect(toolText(found)).toContain("Run database migrations");
    expect(quotedBody((await client.readResource({ uri: "baton://memory/alpha/task-7" })).contents[0])).toEqual(quoteLines("# Revoke tokens\n\n- [ ] revoke button\n"));
    await expect(client.readResource({ uri: "baton://context/beta" })).rejects.toThrow(/No project "beta"/);
  });

  it("takes url and token from ~/.config/baton/config.json when the environment has none", async () => {
    const own = path.join(world.dir, "home-with-config");
    mkdirSync(path.join(own, ".config/baton"), { recursive: true });
    writeFileSync(path.join(own, ".config/baton/config.json"), JSON.stringify({ url: world.server.url, token: world.tokens.anaRead }));
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
      expect(m.error.message).toMatch(/^Baton refused the token \(HTTP 401 unauthorized\): The token is not valid.*Sign in again with `baton login`/);
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
    expect(messages.find((m) => m.id === 3)?.result.contents[0].text.split("\n").slice(1)).toEqual(quoteLines("# Revoke tokens\n\n- [ ] revoke button\n"));
  });

  it("forwards a batch (2025-03-26) as one POST and prints each of its answers", async () => {
    const { code, messages } = await runBridge(envOf("ana"), [[request(8, "ping"), initialized, request(9, "ping")]]);
    expect(code).toBe(0);
    expect(messages.sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: "2.0", id: 8, result: {} },
      { jsonrpc: "2.0", id: 9, result: {} },
    ]);
  });

  it("answers lines that are not JSON-RPC itself (under their id when it can be read); blank lines and CRLF are fine", async () => {
    const { code, messages } = await runBridge(envOf("ana"), ["not json\n", "\n", "[]\n", '{"id":4,"method":"ping"}\n', `${JSON.stringify(request(5, "ping"))}\r\n`]);
    expect(code).toBe(0);
    expect(messages).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      // No "jsonrpc", but an id it can read: answered under that id, so the client is not left waiting.
      { jsonrpc: "2.0", id: 4, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: "2.0", id: 5, result: {} },
    ]);
  });

  it.each([
    { name: "no server configured", env: {}, args: [], error: /no Baton server configured: run `baton login --url <server>`, or set BATON_URL/ },
    { name: "a URL but no token", env: { BATON_URL: "http://127.0.0.1:9" }, args: [], error: /no token for http:\/\/127.0.0.1:9: run `baton login`, or set BATON_TOKEN/ },
    { name: "an unknown option", env: { BATON_URL: "http://127.0.0.1:9", BATON_TOKEN: "t" }, args: ["--verbose"], error: /--verbose/ },
  ])("$name: one line on stderr, exit 2, nothing on stdout", async ({ env, args, error }) => {
    const res = await runCli(["mcp", ...args], { env: bridgeEnv(env), cwd: home, input: JSON.stringify(initialize()) + "\n" });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(res.stderr).toMatch(error);
  });
});
