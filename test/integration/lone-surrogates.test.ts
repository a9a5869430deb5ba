import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { createProject } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";
import { startSqld, type Sqld } from "../support/sqld";

/**
 * Text cut by UTF-16 length can end in half an emoji: a lone surrogate, which JSON carries as
 * `"\ud83d"` (JSON.stringify writes it so). A libSQL server refuses any statement holding one (sqld:
 * "Cannot deserialize client message"), which was a 500 and a lost handoff or proposal; a file stored
 * U+FFFD. Both stores now keep U+FFFD in its place, through the API and MCP alike.
 */
const HALF_EMOJI = "Deploys need the VPN 🚀".slice(0, -1);
const LONE_LOW = "\udc00 then text";
const REPLACED = "Deploys need the VPN \ufffd";
const SECRET = "lone-surrogate-test-secret-0123456789";

for (const shape of ["file", "sqld"] as const) {
  describe(`a lone surrogate in a body, ${shape}`, () => {
    const tmp = tempDir("baton-surrogates-");
    let sqld: Sqld | undefined;
    let server: RunningServer;
    let token: string;

    beforeAll(async () => {
      if (shape === "sqld") sqld = await startSqld();
      const databaseUrl = sqld ? sqld.url : `file:${tmp.dir}/baton.db`;
      const env = { DATABASE_URL: databaseUrl, BATON_SECRET: SECRET };
      server = await startServer({ databaseUrl, env });
      expect((await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], { env })).code).toBe(0);
      token = (await runCli(["admin", "create-token", "--email", "ana@example.com", "--name", "t"], { env })).stdout.trim();
      await createProject(server.url, token, "alpha");
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await sqld?.stop();
      tmp.remove();
    });

    it("is stored as U+FFFD by the API: a learning and its tag, a handoff", async () => {
      const api = apiClient(server.url, token);
      expect(JSON.stringify(HALF_EMOJI)).toContain("\\ud83d");
      const created = await api("POST", "/api/learnings", { kind: "pattern", content: HALF_EMOJI, project: "alpha", confirmed: true, tags: [LONE_LOW.slice(0, 1) + "ops"] });
      expect(created.status, created.text).toBe(201);
      const listed = await api("GET", "/api/learnings?project=alpha");
      expect(listed.status, listed.text).toBe(200);
      const stored = (listed.json.items as { content: string; tags: string[] }[]).find((l) => l.content.startsWith("Deploys"));
      expect(stored).toMatchObject({ content: REPLACED, tags: ["\ufffdops"] });

      const handoff = await api("POST", "/api/projects/alpha/handoffs", { markdown: `Did: ${LONE_LOW}\nNext: ${HALF_EMOJI}\n`, branch: "main" });
      expect(handoff.status, handoff.text).toBe(201);
      const latest = await api("GET", "/api/projects/alpha/handoffs/latest");
      expect(latest.json.handoff.markdown).toBe(`Did: \ufffd then text\nNext: ${REPLACED}\n`);

      // A NUL is still refused outright, with the API's error.
      const nul = await api("POST", "/api/learnings", { kind: "pattern", content: "a\u0000b", project: "alpha" });
      expect([nul.status, nul.json.error.code]).toEqual([400, "bad_request"]);
    });

    it("is stored as U+FFFD through MCP", async () => {
      const client = new Client({ name: "baton-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      try {
        const result = (await client.callTool({ name: "propose_learning", arguments: { kind: "insight", content: `Staging ${HALF_EMOJI}`, project: "alpha" } })) as CallToolResult;
        expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
        expect((result.structuredContent as { proposal: { content: string } }).proposal.content).toBe(`Staging ${REPLACED}`);
      } finally {
        await client.close();
      }
    });

    it("is refused in a body nested too deeply to read through MCP, never stored unread (a 500 on sqld)", async () => {
      const deep = "[".repeat(5000) + "]".repeat(5000);
      const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_handoff","arguments":{"project":"alpha","markdown":"half \\ud83d x"},"_meta":{"x":${deep}}}}`;
      const res = await apiClient(server.url, token)("POST", "/api/mcp", call, { accept: "application/json, text/event-stream" });
      expect(res.status, res.text).toBe(400);
      expect(res.text).not.toContain("internal_error");
      const latest = await apiClient(server.url, token)("GET", "/api/projects/alpha/handoffs?limit=100");
      expect(JSON.stringify(latest.json.items)).not.toContain("half");
    });
  });
}
