import { discoverOAuthServerInfo, registerClient, type CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { tableCounts } from "../support/fixtures";
import { READING_TOOLS, toolText, WRITING_TOOLS } from "../support/mcp";
import { mcpTestWorld, type Era } from "../support/mcp-world";

// Connecting to /api/mcp, and what the HTTP edge refuses before any MCP handling. One real server on
// a real database file, the standard cast (see mcpTestWorld).
const { world, mcp, connect } = mcpTestWorld();

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
    const modern = await connect("anaGammaOnly", "auto");
    expect((await modern.listResources()).resources.map((r) => r.uri)).toEqual(["baton://context/gamma"]);
    expect((await modern.readResource({ uri: "baton://context/gamma" })).contents[0]).toMatchObject({ mimeType: "text/plain" });
    await expect(modern.readResource({ uri: "baton://context/alpha" })).rejects.toThrow(/may not touch the project "alpha"/);
    const refused = (await modern.callTool({ name: "propose_learning", arguments: { kind: "insight", content: "x", project: "alpha" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(toolText(refused)).toMatch(/^forbidden/);
    const readOnly = await connect("anaRead", "auto");
    await expect(readOnly.callTool({ name: "write_handoff", arguments: { project: "alpha", markdown: "x" } })).rejects.toThrow(/write_handoff/);
  });

  it("tells a read token that the writing tools are not offered, naming each of them", async () => {
    expect(mcp.anaRead!.getInstructions()).toMatch(/read scope.*not offered/);
    expect(mcp.ana!.getInstructions()).toContain("may read and write");
    const names = async (who: "ana" | "anaRead") => (await mcp[who]!.listTools()).tools.map((t) => t.name);
    const readable = await names("anaRead");
    const withheld = (await names("ana")).filter((name) => !readable.includes(name));
    expect(withheld.length).toBeGreaterThan(0);
    for (const name of withheld) expect(mcp.anaRead!.getInstructions(), name).toContain(name);
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
    fetch(`${world.server.url}/api/mcp`, {
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
    const res = await post({ ...(token ? { authorization: `Bearer ${world.tokens.ana}` } : {}), ...headers });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ ok: false, error: { code, message: expect.any(String) } });
    if (status === 401) expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("this server's own Origin, and no Origin at all (CLI clients), are served", async () => {
    for (const headers of [{ origin: world.server.url }, {}] as Record<string, string>[]) {
      const res = await post({ authorization: `Bearer ${world.tokens.ana}`, ...headers });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('"serverInfo"');
    }
  });

  it("a body over BATON_MAX_BODY_BYTES → 413, a NUL character → 400, nothing stored", async () => {
    const before = await tableCounts(world.databaseUrl);
    const call = (args: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "propose_learning", arguments: args } });
    const big = await post({ authorization: `Bearer ${world.tokens.ana}` }, call({ kind: "insight", content: "x".repeat(70_000) }));
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe("payload_too_large");
    const nul = await post({ authorization: `Bearer ${world.tokens.ana}` }, call({ kind: "insight", content: "cut\u0000here" }));
    expect(nul.status).toBe(400);
    // Nested deeper than a reviver can walk, with an escape in it: the handler's own answer, never a 500.
    const nested = `${"[".repeat(8000)}"\\u0041"${"]".repeat(8000)}`;
    const deep = await post({ authorization: `Bearer ${world.tokens.ana}` }, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"propose_learning","arguments":{"kind":"insight","content":${nested}}}}`);
    expect(deep.status).toBeLessThan(500);
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
  });

  it("GET and DELETE (2025 session operations) are answered by the stateless handler, not the catch-all", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${world.server.url}/api/mcp`, { method, headers: { authorization: `Bearer ${world.tokens.ana}`, accept: "text/event-stream" } });
      expect(res.status, method).toBe(405);
    }
    const anonymous = await fetch(`${world.server.url}/api/mcp`, { method: "GET" });
    expect(anonymous.status).toBe(401);
  });

  it("the client refuses to connect without a valid token", async () => {
    world.tokens.bogus = "baton_not-a-real-token";
    await expect(connect("bogus")).rejects.toThrow();
  });
});

// After a 401 an MCP client (Claude Code, the SDK's auth()) looks for OAuth: the protected-resource and
// authorization-server metadata, then POST /register. Baton has no OAuth server and must say so in JSON:
// a 404 there means "none" to the SDK, where the sign-in page (HTML, after a redirect) broke its JSON parse.
describe("OAuth discovery after a 401", () => {
  it.each([
    { method: "GET", path: "/.well-known/oauth-protected-resource" },
    { method: "GET", path: "/.well-known/oauth-protected-resource/api/mcp" },
    { method: "GET", path: "/.well-known/oauth-authorization-server" },
    { method: "GET", path: "/.well-known/openid-configuration" },
    { method: "GET", path: "/.well-known" },
    { method: "POST", path: "/register" },
  ])("$method $path → a JSON 404, not a redirect to sign-in", async ({ method, path }) => {
    const res = await fetch(`${world.server.url}${path}`, { method, redirect: "manual", headers: { accept: "application/json" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ ok: false, error: { code: "not_found", message: expect.stringMatching(/no OAuth server.*Bearer/) } });
  });

  it("the SDK's discovery finds no OAuth server (no error), registration is refused with the 404, and the 401 still carries its challenge", async () => {
    const mcpUrl = new URL(`${world.server.url}/api/mcp`);
    const unauthorized = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toMatch(/^Bearer realm="baton"/);

    const found = await discoverOAuthServerInfo(mcpUrl);
    expect(found).toEqual({ authorizationServerUrl: `${world.server.url}/`, authorizationServerMetadata: undefined, resourceMetadata: undefined });
    const registered = registerClient(new URL(found.authorizationServerUrl), { clientMetadata: { redirect_uris: ["http://127.0.0.1:1/callback"], client_name: "test" } });
    await expect(registered).rejects.toMatchObject({ status: 404, body: expect.stringContaining('"not_found"') });
  });

  it("real dashboard pages still send a visitor without a session to sign-in", async () => {
    const res = await fetch(`${world.server.url}/learnings`, { redirect: "manual" });
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toMatch(/\/sign-in\?next=%2Flearnings$/);
  });
});
