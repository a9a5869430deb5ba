import { Client, ProtocolErrorCode, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { createProject } from "../support/fixtures";
import { startServer, type RunningServer } from "../support/server";
import { startSqld, type Sqld } from "../support/sqld";

/**
 * The database out of reach while an MCP client reads: a resource read or list is a JSON-RPC Internal
 * error (-32603) carrying database_unavailable and Retry-After's seconds, as a tool's isError result
 * carries them, not Invalid params (-32602), which tells a client its request was wrong. A real libSQL
 * server is killed mid-run; the token, remembered for a few seconds (lib/auth/token-memory.ts), still
 * gets the request past authentication to the resource.
 */
const SECRET = "mcp-database-down-test-secret-0123456789";
const UNAVAILABLE = { code: "database_unavailable", retryAfter: expect.any(Number) };

describe("MCP with the database out of reach", () => {
  let sqld: Sqld;
  let server: RunningServer;
  let client: Client;

  beforeAll(async () => {
    sqld = await startSqld();
    const env = { DATABASE_URL: sqld.url, BATON_SECRET: SECRET };
    server = await startServer({ databaseUrl: sqld.url, env });
    expect((await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], { env })).code).toBe(0);
    const token = (await runCli(["admin", "create-token", "--email", "ana@example.com", "--name", "t"], { env })).stdout.trim();
    await createProject(server.url, token, "alpha");
    expect((await apiClient(server.url, token)("PUT", "/api/projects/alpha/tasks/task-1/memory", { markdown: "Remember this." })).status).toBe(200);
    client = new Client({ name: "baton-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  }, 120_000);
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await server?.stop();
    await sqld?.stop();
  });

  it("a refused request is still Invalid params; an outage is Internal error with database_unavailable and retryAfter, then it serves again", async () => {
    await expect(client.readResource({ uri: "baton://memory/alpha/.hidden" })).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams, data: { code: "validation_failed" } });
    // Just read, so the token is remembered through the outage below.
    expect((await client.readResource({ uri: "baton://memory/alpha/task-1" })).contents).toHaveLength(1);

    await sqld.kill();
    const read = client.readResource({ uri: "baton://memory/alpha/task-1" });
    await expect(read).rejects.toMatchObject({ code: ProtocolErrorCode.InternalError, message: expect.stringContaining("database_unavailable"), data: UNAVAILABLE });
    await expect(client.listResources()).rejects.toMatchObject({ code: ProtocolErrorCode.InternalError, data: UNAVAILABLE });
    const tool = (await client.callTool({ name: "get_task_memory", arguments: { project: "alpha", taskId: "task-1" } })) as CallToolResult;
    expect(tool.isError).toBe(true);
    expect(tool.structuredContent).toEqual({ ok: false, error: { code: "database_unavailable", message: expect.any(String), retryAfter: expect.any(Number) } });

    await sqld.restart();
    await expect.poll(async () => (await client.readResource({ uri: "baton://memory/alpha/task-1" }).catch(() => ({ contents: [] }))).contents.length, { timeout: 30_000 }).toBe(1);
  }, 60_000);
});
