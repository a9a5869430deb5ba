import { describe, expect, it } from "vitest";
import { quoteLines } from "@/lib/context/pack/fence";
import { TEMPLATES, mcpTestWorld } from "../support/mcp-world";

// The MCP resources: listed by what each token may read, read byte for byte, refused as MCP errors.
// One real server on a real database file, the standard cast (see mcpTestWorld).
const { world, mcp, readText, listedUris } = mcpTestWorld();

describe("resources", () => {
  it("lists the six templates", async () => {
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
        "baton://session/alpha/s-high",
        "baton://session/alpha/s-low",
        "baton://session/alpha/s-third",
      ],
    },
    { who: "anaGammaOnly", uris: ["baton://context/gamma"] },
    // bo is a member of alpha without an active task of his own.
    { who: "bo", uris: ["baton://context/alpha", "baton://handoff/alpha/latest", "baton://session/alpha/s-high", "baton://session/alpha/s-low", "baton://session/alpha/s-third"] },
    { who: "cy", uris: ["baton://context/beta", "baton://handoff/beta/latest", "baton://memory/beta/active", "baton://memory/beta/task-9", "baton://session/beta/s-beta"] },
  ])("$who is listed exactly the resources of the projects the token may read", async ({ who, uris }) => {
    expect(await listedUris(who)).toEqual([...uris].sort());
  });

  it("the context resource is the text GET /api/context?format=text returns for the same project", async () => {
    const served = "SELECT count(*) AS n FROM context_log l JOIN projects p ON p.id = l.project_id WHERE p.slug = 'alpha'";
    const logged = async () => Number((await world.sql(served))[0]!.n);
    const loggedBefore = await logged();
    const before = await world.as("ana")("GET", "/api/context?project=alpha&format=text");
    const viaMcp = await readText("ana", "baton://context/alpha");
    const after = await world.as("ana")("GET", "/api/context?project=alpha&format=text");
    expect(before.status).toBe(200);
    // Relative times ("3 min ago") may tick between the calls; one of the two matches byte for byte.
    expect([before.text, after.text]).toContain(viaMcp.text);
    expect(viaMcp.text).toContain("task-368");
    expect(viaMcp.text).not.toContain("Beta secret");
    expect(viaMcp.mimeType).toBe("text/plain");
    // The served-context bookkeeping (written in batches) counts the MCP read as the route counts its own.
    await expect.poll(logged, { timeout: 15_000 }).toBeGreaterThanOrEqual(loggedBefore + 3);
    expect(await logged()).toBe(loggedBefore + 3);
  });

  it.each([
    { uri: "baton://memory/alpha/active", heading: /^Memory of task-368 in alpha \(by you, updated [^)]+\), quoted:$/, expected: "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n", meta: { taskId: "task-368", project: "alpha", updatedBy: "ana", updatedByYou: true } },
    { uri: "baton://memory/alpha/task-368", heading: /^Memory of task-368 in alpha \(by you, /, expected: "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n", meta: { taskId: "task-368" } },
    { uri: "baton://handoff/alpha/latest", heading: /^Handoff in alpha \(by ana, Codex CLI · gpt-5\.1, at [^,]+, branch main\), quoted:$/, expected: "Did: login form.\nNext: token revoke.\n", meta: { branch: "main", sessionId: "h1", author: "ana", agent: "codex", model: "gpt-5.1" } },
    { uri: "baton://session/alpha/s-high", heading: /^Session document s-high in alpha \(by \w+, queued [^)]+\), quoted:$/, expected: "---\nid: s-high\npriority: high\nspecs: [docs/spec.md]\nfiles: [lib/a.ts]\n---\nHigh priority work.", meta: { status: "todo", specs: ["docs/spec.md"] } },
    { uri: "baton://session/s-high", heading: /^Session document s-high in alpha \(by \w+, queued [^)]+\), quoted:$/, expected: "---\nid: s-high\npriority: high\nspecs: [docs/spec.md]\nfiles: [lib/a.ts]\n---\nHigh priority work.", meta: { project: "alpha" } },
  ])("reads $uri: the stored markdown quoted under who wrote it and when, facts in _meta", async ({ uri, heading, expected, meta }) => {
    const res = await readText("ana", uri);
    expect(res.count).toBe(1);
    const [first, ...rest] = res.text.split("\n");
    expect(first).toMatch(heading);
    expect(rest).toEqual(quoteLines(expected));
    expect(res.mimeType).toBe("text/markdown");
    expect(res.meta).toMatchObject(meta);
  });

  it("reading a session document does not claim it", async () => {
    await readText("ana", "baton://session/s-third");
    expect((await world.sql("SELECT status FROM session_docs WHERE id = ?", ["s-third"]))[0]!.status).toBe("todo");
  });

  it.each([
    { who: "ana", uri: "baton://context/beta", error: /No project "beta"/ },
    { who: "ana", uri: "baton://memory/beta/active", error: /No project "beta"/ },
    { who: "ana", uri: "baton://memory/beta/task-9", error: /No project "beta"/ },
    { who: "ana", uri: "baton://handoff/beta/latest", error: /No project "beta"/ },
    { who: "ana", uri: "baton://session/s-beta", error: /No session document "s-beta"/ },
    { who: "ana", uri: "baton://session/beta/s-beta", error: /No project "beta"/ },
    { who: "ana", uri: "baton://session/alpha/s-beta", error: /No session document "s-beta" in "alpha"/ },
    { who: "anaGammaOnly", uri: "baton://context/alpha", error: /forbidden: This token may not touch the project "alpha"/ },
    { who: "anaGammaOnly", uri: "baton://handoff/alpha/latest", error: /may not touch the project "alpha"/ },
    // By id alone a limited token looks in its own projects: alpha's id is as free to it as any other.
    { who: "anaGammaOnly", uri: "baton://session/s-low", error: /No session document "s-low" in a project of yours/ },
    { who: "anaGammaOnly", uri: "baton://session/alpha/s-low", error: /may not touch the project "alpha"/ },
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

describe("a session document id in two projects", () => {
  it("each is read by project and id; the id alone names the caller's projects that have it, never another's", async () => {
    // s-third is in alpha already; gamma (ana's) and beta (cy's) take the same id.
    expect((await world.as("ana")("POST", "/api/projects/gamma/sessions", { markdown: "---\nid: s-third\n---\nGamma's third." })).status).toBe(201);
    expect((await world.as("cy")("POST", "/api/projects/beta/sessions", { markdown: "---\nid: s-third\n---\nBeta's third." })).status).toBe(201);
    expect((await readText("ana", "baton://session/gamma/s-third")).text.split("\n").slice(1)).toEqual(quoteLines("---\nid: s-third\n---\nGamma's third."));
    expect((await readText("ana", "baton://session/alpha/s-third")).text.split("\n").slice(1)).toEqual(quoteLines("---\nid: s-third\n---\nThird."));
    expect(await listedUris("ana")).toEqual(expect.arrayContaining(["baton://session/alpha/s-third", "baton://session/gamma/s-third"]));

    const ambiguous = mcp.ana!.readResource({ uri: "baton://session/s-third" });
    await expect(ambiguous).rejects.toThrow(/more than one of your projects \(alpha, gamma\)/);
    await expect(mcp.ana!.readResource({ uri: "baton://session/s-third" })).rejects.not.toThrow(/beta/);
    // bo is a member of alpha alone: for him the id is unambiguous, whoever else has it; and so it is
    // for a token of ana's limited to gamma.
    expect((await readText("bo", "baton://session/s-third")).meta).toMatchObject({ project: "alpha" });
    expect((await readText("anaGammaOnly", "baton://session/s-third")).meta).toMatchObject({ project: "gamma" });
  });
});

describe("the documents the caller holds", () => {
  it("are listed however many documents teammates hold ahead of them in the queue", async () => {
    const queue = (id: string, priority: string) => world.as("ana")("POST", "/api/projects/alpha/sessions", { markdown: `---\nid: ${id}\npriority: ${priority}\n---\nWork.` });
    const taken = Array.from({ length: 21 }, (_, i) => `taken-${i}`);
    for (const id of taken) expect((await queue(id, "high")).status).toBe(201);
    expect((await queue("mine", "low")).status).toBe(201);
    for (const id of taken) expect((await world.as("bo")("POST", `/api/projects/alpha/sessions/${id}/claim`)).status).toBe(200);
    expect((await world.as("ana")("POST", "/api/projects/alpha/sessions/mine/claim")).status).toBe(200);

    const listed = await mcp.ana!.listResources();
    const held = listed.resources.find((r) => r.uri === "baton://session/alpha/mine");
    expect(held?.title).toMatch(/\(claimed by you\)$/);
    // bo's are his: listed for him, not for ana.
    expect(listed.resources.map((r) => r.uri)).not.toContain("baton://session/alpha/taken-0");
    expect(await listedUris("bo")).toContain("baton://session/alpha/taken-0");
  });
});

