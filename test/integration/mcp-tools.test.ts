import { describe, expect, it } from "vitest";
import { tableCounts } from "../support/fixtures";
import { READING_TOOLS, toolText, WRITING_TOOLS } from "../support/mcp";
import { mcpTestWorld } from "../support/mcp-world";

// The MCP tools: what each does, and each refusal an isError result that writes nothing. One real
// server on a real database file, the standard cast (see mcpTestWorld).
const { world, mcp, call, readText, listedUris } = mcpTestWorld();

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

  it("the server's instructions and propose_learning's description say what a learning is for and what makes a good one", async () => {
    const { tools } = await mcp.ana!.listTools();
    const propose = tools.find((t) => t.name === "propose_learning")!.description!;
    // The same proposal twice raises the pending one's confidence: a client must not retry it as safe.
    expect(tools.find((t) => t.name === "propose_learning")!.annotations).toMatchObject({ idempotentHint: false, readOnlyHint: false });
    for (const text of [mcp.ana!.getInstructions()!, propose]) {
      expect(text).toContain("a correction the user made");
      expect(text).toContain("a fix that took effort");
      expect(text).toContain("a decision and its reason");
      expect(text).toMatch(/Not one-off orders.*guesses.*what the code or its docs already say/);
    }
    expect(propose).toContain("marked as proposed by the agent");
    // A read token is not offered propose_learning, and is not told how to use it.
    expect(mcp.anaRead!.getInstructions()).not.toContain("a fix that took effort");
  });

  it("search_learnings finds by full text, within what the token may read", async () => {
    const found = await call("ana", "search_learnings", { query: "migrations" });
    expect(found.isError).toBeFalsy();
    expect(toolText(found)).toContain("Run database migrations before starting the dev server");
    expect(toolText(found)).not.toContain("Beta secret");
    expect(found.structuredContent).toMatchObject({ ok: true, items: [{ project: "alpha", kind: "pattern" }], nextCursor: null });

    const recent = await call("anaGammaOnly", "search_learnings", {});
    expect(toolText(recent)).toContain("Gamma deploys");
    expect(toolText(recent)).not.toContain("Run database migrations");
    expect(toolText(await call("cy", "search_learnings", { query: "migrations" }))).toContain("Beta secret");
  });

  it("propose_learning stores a pending proposal; a near-duplicate raises its confidence instead", async () => {
    const first = await call("ana", "propose_learning", { kind: "pattern", content: "Prefer server actions for dashboard mutations", project: "alpha", confidence: 0.6, agent: "claude" });
    expect(first.isError, toolText(first)).toBeFalsy();
    expect(toolText(first)).toMatch(/^Proposed for review/);
    // Proposed through MCP: the agent's own, shown as such in the review queue.
    expect(first.structuredContent).toMatchObject({ proposal: { agent: "claude", model: null, method: "agent", lesson: null, evidence: null } });
    const id = (first.structuredContent as { proposal: { id: string } }).proposal.id;
    const again = await call("bo", "propose_learning", { kind: "pattern", content: "Prefer server actions for dashboard mutations.", project: "alpha", confidence: 0.6 });
    expect(toolText(again)).toContain(`Merged into pending proposal ${id}`);
    const rows = await world.sql("SELECT status, source, merged_count, confidence FROM proposals WHERE content LIKE 'Prefer server actions%'");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", source: "mcp", merged_count: 1 });
    expect(Number(rows[0]!.confidence)).toBeGreaterThan(0.6);

    const known = await call("ana", "propose_learning", { kind: "pattern", content: "Run database migrations before starting the dev server", project: "alpha" });
    expect(toolText(known)).toMatch(/^Already known, nothing stored/);
  });

  it("write_handoff stores the handoff that the next session's latest handoff returns", async () => {
    const markdown = "## Did\n- revoke button  \n\n## Next\n- tests\n";
    const res = await call("bo", "write_handoff", { project: "alpha", markdown, branch: "feat/revoke", sessionId: "mcp-1" });
    expect(res.isError, toolText(res)).toBeFalsy();
    expect(toolText(res)).toContain("Handoff saved in alpha on branch feat/revoke, by bo");
    const latest = await world.as("ana")("GET", "/api/projects/alpha/handoffs/latest?branch=feat/revoke");
    expect(latest.json.handoff).toMatchObject({ markdown, sessionId: "mcp-1", author: "bo" });
    const replaced = await call("bo", "write_handoff", { project: "alpha", markdown: "fuller", sessionId: "mcp-1" });
    expect(toolText(replaced)).toContain("Handoff of session mcp-1 replaced");
    // An agent that says which it is is named beside the author, and the handoff keeps it.
    const named = await call("bo", "write_handoff", { project: "alpha", markdown: "by opencode", sessionId: "mcp-2", agent: "opencode", model: "qwen3-coder" });
    expect(toolText(named)).toContain("by bo (opencode · qwen3-coder)");
    expect(named.structuredContent).toMatchObject({ handoff: { agent: "opencode", model: "qwen3-coder" } });
    expect(await world.sql("SELECT count(*) AS n FROM handoffs WHERE session_id = 'mcp-1'")).toEqual([expect.objectContaining({ n: 1 })]);
  });

  it("get_task_memory reads the active task by default, or the one named", async () => {
    const active = await call("ana", "get_task_memory", { project: "alpha" });
    expect(active.isError, toolText(active)).toBeFalsy();
    expect(toolText(active)).toContain("Memory of task-368 (your active task) in alpha (by you, updated ");
    expect(toolText(active)).toContain("- [ ] revoke button");
    expect(active.structuredContent).toMatchObject({ active: true, memory: { taskId: "task-368", project: "alpha" } });
    const named = await call("vi", "get_task_memory", { project: "alpha", taskId: "task-368" });
    expect(named.structuredContent).toMatchObject({ active: false, memory: { markdown: "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n" } });
  });

  it("set_task_memory replaces the memory, of the active task by default", async () => {
    const res = await call("ana", "set_task_memory", { project: "alpha", markdown: "# Token revocation\n\n- [x] list tokens\n- [x] revoke button\n" });
    expect(res.isError, toolText(res)).toBeFalsy();
    const stored = await world.as("ana")("GET", "/api/projects/alpha/tasks/task-368/memory");
    expect(stored.json.memory.markdown).toBe("# Token revocation\n\n- [x] list tokens\n- [x] revoke button\n");
    expect((await readText("ana", "baton://memory/alpha/active")).text).toContain("- [x] revoke button");

    const other = await call("bo", "set_task_memory", { project: "alpha", taskId: "task-400", markdown: "" });
    expect(other.isError, toolText(other)).toBeFalsy();
    expect((await world.as("bo")("GET", "/api/projects/alpha/tasks/task-400/memory")).json.memory.markdown).toBe("");
  });

  it("pickup_session claims the next queued document by priority, or one by id, and nobody gets it twice", async () => {
    const next = await call("bo", "pickup_session", { project: "alpha" });
    expect(next.isError, toolText(next)).toBeFalsy();
    expect(toolText(next)).toContain("Claimed session s-high in alpha");
    expect(toolText(next)).toContain("- spec: docs/spec.md\n- file: lib/a.ts");
    expect(toolText(next)).toContain("High priority work.");
    expect((await world.sql("SELECT status FROM session_docs WHERE id = 's-high'"))[0]!.status).toBe("doing");

    const taken = await call("ana", "pickup_session", { id: "s-high" });
    expect(taken.isError).toBe(true);
    expect(toolText(taken)).toMatch(/^conflict: Session "s-high" is already claimed by bo/);

    const byId = await call("ana", "pickup_session", { id: "s-low" });
    expect(toolText(byId)).toContain("Claimed session s-low in alpha");
    // Claimed documents leave bo's listing of the queue but stay listed for their holder.
    expect(await listedUris("bo")).toContain("baton://session/alpha/s-high");
    expect(await listedUris("bo")).not.toContain("baton://session/alpha/s-low");
  });

  it("pickup_session never offers a listed path outside the repository (a document stored before such paths were refused)", async () => {
    expect((await world.as("ana")("POST", "/api/projects/gamma/sessions", { markdown: "---\nid: s-paths\nfiles: [src/app.ts]\n---\nRead the files." })).status).toBe(201);
    await world.sql("UPDATE session_docs SET specs = ?, files = ? WHERE id = 's-paths'", [JSON.stringify(["docs/plan.md", "~/.aws/credentials"]), JSON.stringify(["../../home/ana/.ssh/id_rsa", "/home/ana/.config/baton/config.json", "src/app.ts"])]);
    const text = toolText(await call("ana", "pickup_session", { id: "s-paths", project: "gamma" }));
    expect(text).toContain("It lists these paths in the repository:\n- spec: docs/plan.md\n- file: src/app.ts\n(3 listed paths outside the repository left out.)");
    for (const outside of [".aws", ".ssh", ".config/baton"]) expect(text).not.toContain(outside);
    // The resource's facts too.
    const resource = await mcp.ana!.readResource({ uri: "baton://session/gamma/s-paths" });
    expect(resource.contents[0]!._meta).toMatchObject({ specs: ["docs/plan.md"], files: ["src/app.ts"] });
    expect(toolText(await call("ana", "complete_session", { id: "s-paths", project: "gamma" }))).toContain("now done");
  });

  it("complete_session and release_session finish a claimed document, as its claimer or an owner, and say why not otherwise", async () => {
    const status = async (id: string) => (await world.sql("SELECT status FROM session_docs WHERE id = ?", [id]))[0]!.status;
    // bo holds s-high and ana s-low (the test before). A member may not finish another's claim.
    const notHis = await call("bo", "release_session", { id: "s-low" });
    expect(notHis.isError).toBe(true);
    expect(toolText(notHis)).toMatch(/^forbidden: Session "s-low" is claimed by ana .* only its claimer or an owner of "alpha" may release it/);
    expect(await status("s-low")).toBe("doing");

    const done = await call("bo", "complete_session", { id: "s-high" });
    expect(done.isError, toolText(done)).toBeFalsy();
    expect(toolText(done)).toBe("Session s-high in alpha is now done: it has left the queue.");
    expect(done.structuredContent).toMatchObject({ ok: true, session: { id: "s-high", status: "done", claimedBy: { name: "bo" } } });
    expect(await status("s-high")).toBe("done");
    const again = await call("bo", "complete_session", { id: "s-high" });
    expect(toolText(again)).toMatch(/^conflict: Session "s-high" is done, not claimed/);

    const released = await call("ana", "release_session", { id: "s-low" });
    expect(toolText(released)).toBe("Session s-low in alpha is now todo again: back in the queue for anyone.");
    expect(await status("s-low")).toBe("todo");
    expect(toolText(await call("ana", "release_session", { id: "s-third" }))).toMatch(/^conflict: Session "s-third" is todo, not claimed/);
    expect(toolText(await call("cy", "complete_session", { id: "s-low" }))).toMatch(/^not_found/);
    expect(toolText(await call("vi", "complete_session", { id: "s-low" }))).toMatch(/^forbidden: Your role in "alpha" \(viewer\)/);
    expect(toolText(await call("ana", "complete_session", { id: "no such/id" }))).toMatch(/session id|letters, digits/);
  });

  it("the session tools take a project where an id is in more than one of the caller's projects", async () => {
    const status = async (slug: string) =>
      (await world.sql("SELECT d.status FROM session_docs d JOIN projects p ON p.id = d.project_id WHERE d.id = 's-dup' AND p.slug = ?", [slug]))[0]!.status;
    for (const slug of ["alpha", "gamma"]) {
      expect((await world.as("ana")("POST", `/api/projects/${slug}/sessions`, { markdown: `---\nid: s-dup\n---\nThe ${slug} one.` })).status).toBe(201);
    }
    const ambiguous = await call("ana", "pickup_session", { id: "s-dup" });
    expect(toolText(ambiguous)).toMatch(/^conflict: Session document "s-dup" is in more than one of your projects \(alpha, gamma\)/);
    const picked = await call("ana", "pickup_session", { id: "s-dup", project: "gamma" });
    expect(toolText(picked)).toContain("Claimed session s-dup in gamma");
    expect(toolText(picked)).toContain("The gamma one.");
    expect([await status("alpha"), await status("gamma")]).toEqual(["todo", "doing"]);
    expect(toolText(await call("ana", "complete_session", { id: "s-dup" }))).toMatch(/^conflict: .*\(alpha, gamma\)/);
    expect(toolText(await call("ana", "complete_session", { id: "s-dup", project: "gamma" }))).toBe("Session s-dup in gamma is now done: it has left the queue.");
    // A token of ana's limited to gamma: the id alone is gamma's (done now), alpha's copy no concern of it.
    expect(toolText(await call("anaGammaOnly", "pickup_session", { id: "s-dup" }))).toMatch(/^conflict: Session "s-dup" is already done/);
    // bo is a member of alpha, not gamma: for him the id alone is alpha's.
    expect(toolText(await call("bo", "pickup_session", { id: "s-dup" }))).toContain("Claimed session s-dup in alpha");
    expect(toolText(await call("bo", "release_session", { id: "s-dup", project: "alpha" }))).toBe("Session s-dup in alpha is now todo again: back in the queue for anyone.");
    expect([await status("alpha"), await status("gamma")]).toEqual(["todo", "done"]);
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
    { who: "anaGammaOnly", name: "propose_learning", args: { kind: "insight", content: "Alpha idea", project: "alpha" }, error: /^forbidden: This token may not touch/ },
    { who: "ana", name: "write_handoff", args: { project: "alpha", markdown: "  \n" }, error: /markdown is empty/ },
    { who: "ana", name: "write_handoff", args: { project: "alpha" }, error: /markdown/ },
    { who: "ana", name: "write_handoff", args: { project: "alpha", markdown: "hi", agent: "cursor" }, error: /agent/ },
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
    { who: "anaGammaOnly", name: "pickup_session", args: { id: "s-third" }, error: /^not_found: No session document "s-third" in a project of yours/ },
    { who: "ana", name: "pickup_session", args: { id: "s-beta", project: "beta" }, error: /^not_found: No project "beta"/ },
    { who: "ana", name: "pickup_session", args: { id: "s-beta", project: "alpha" }, error: /^not_found: No session document "s-beta" in "alpha"/ },
    { who: "cy", name: "complete_session", args: { id: "s-low", project: "alpha" }, error: /^not_found: No project "alpha"/ },
    { who: "ana", name: "pickup_session", args: { project: "gamma" }, error: /^not_found: Nothing is queued in "gamma"/ },
    { who: "ana", name: "pickup_session", args: { id: "no such/id" }, error: /session id|letters, digits/ },
  ])("$name($args) by $who → isError with a clear text, nothing stored", async ({ who, name, args, error }) => {
    const before = await tableCounts(world.databaseUrl);
    const res = await call(who, name, args);
    expect(res.isError, toolText(res)).toBe(true);
    expect(toolText(res)).toMatch(error);
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
  });

  it("a read token is not offered the writing tools, and calling one is an MCP error that writes nothing", async () => {
    const names = (await mcp.anaRead!.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(READING_TOOLS);
    const before = await tableCounts(world.databaseUrl);
    for (const name of WRITING_TOOLS) {
      await expect(mcp.anaRead!.callTool({ name, arguments: { project: "alpha", kind: "insight", content: "x", markdown: "x" } })).rejects.toThrow(
        new RegExp(`Tool ${name} not found`),
      );
    }
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
    const read = await call("anaRead", "get_task_memory", { project: "alpha" });
    expect(read.isError, toolText(read)).toBeFalsy();
  });

  it("an unknown tool is a protocol error, and the server keeps serving", async () => {
    await expect(mcp.ana!.callTool({ name: "drop_tables", arguments: {} })).rejects.toThrow(/drop_tables/);
    expect((await call("ana", "search_learnings", { query: "migrations" })).isError).toBeFalsy();
    expect(world.server.output()).not.toMatch(/unexpected error|Unhandled|TypeError/);
  });
});
