import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect } from "vitest";
import { TEST_MAX_BODY_BYTES, testWorld } from "./world";

export type Era = "legacy" | "auto";

/** The six resource templates the server lists (a session document by project and id, and by id alone). */
export const TEMPLATES = [
  "baton://context/{project}",
  "baton://handoff/{project}/latest",
  "baton://memory/{project}/active",
  "baton://memory/{project}/{taskId}",
  "baton://session/{id}",
  "baton://session/{project}/{id}",
];

// What each project holds before the tests: learnings, handoffs, task memory and the session queue.
const SETUP: [string, string, string, unknown, number][] = [
  ["ana", "POST", "/api/learnings", { kind: "pattern", content: "Run database migrations before starting the dev server", project: "alpha", confirmed: true, tags: ["db"] }, 201],
  ["ana", "POST", "/api/learnings", { kind: "insight", content: "Gamma deploys go through the staging bucket", project: "gamma", confirmed: true }, 201],
  ["cy", "POST", "/api/learnings", { kind: "insight", content: "Beta secret: migrations run from the ops box", project: "beta", confirmed: true }, 201],
  ["ana", "POST", "/api/projects/alpha/handoffs", { markdown: "Did: login form.\nNext: token revoke.\n", branch: "main", sessionId: "h1", agent: "codex", model: "gpt-5.1" }, 201],
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

/**
 * The standard world (ana owns alpha and gamma, bo a member and vi a viewer of alpha; cy owns beta,
 * which nobody else may see) filled through the API, with an MCP client of each token connected to
 * /api/mcp. For one test file: registers its own beforeAll and afterAll.
 */
export function mcpTestWorld() {
  const world = testWorld({ env: { BATON_MAX_BODY_BYTES: TEST_MAX_BODY_BYTES } });
  const clients: Client[] = [];
  const mcp: Record<string, Client> = {};

  /** The official client over Streamable HTTP, with the token as a Bearer header (as .mcp.json sends it). */
  async function connect(who: string, era: Era = "legacy"): Promise<Client> {
    const client = new Client({ name: "baton-test", version: "1.0.0" }, { versionNegotiation: { mode: era } });
    const transport = new StreamableHTTPClientTransport(new URL(`${world.server.url}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${world.tokens[who]}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    for (const [who, method, path, body, status] of SETUP) {
      const res = await world.as(who)(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    }
    for (const who of ["ana", "anaRead", "anaGammaOnly", "bo", "vi", "cy"]) mcp[who] = await connect(who);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
  });

  const call = (who: string, name: string, args: Record<string, unknown>) => mcp[who]!.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const readText = async (who: string, uri: string) => {
    const res = await mcp[who]!.readResource({ uri });
    const first = res.contents[0]!;
    return { text: "text" in first ? first.text : "", meta: first._meta, mimeType: first.mimeType, count: res.contents.length };
  };
  const listedUris = async (who: string) => (await mcp[who]!.listResources()).resources.map((r) => r.uri).sort();

  return { world, mcp, connect, call, readText, listedUris };
}
