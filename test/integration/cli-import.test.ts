import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { createProject, createUserWithToken } from "../support/fixtures";
import { ROOT, startServer, tempDir, type RunningServer } from "../support/server";
import { FIXTURES, homeEnv, runBaton } from "../fixtures/cli/cli-env";

// `baton import` of the four formats, each twice: the second run adds nothing.

const tmp = tempDir("baton-cli-import-");
const databaseUrl = `file:${tmp.dir}/import.db`;
let server: RunningServer;
let token: string;
let env: Record<string, string>;
const IMPORT = path.join(FIXTURES, "import");

beforeAll(async () => {
  server = await startServer({ databaseUrl });
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  await createProject(server.url, token, "web");
  env = homeEnv(path.join(tmp.dir, "home"), { BATON_URL: server.url, BATON_TOKEN: token });
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

const zero = { added: 0, updated: 0, unchanged: 0, failed: 0 };
const noSessions = { added: 0, unchanged: 0, skippedDoing: 0, skippedArchive: 0, failed: 0 };
const noSeed = { files: 0, learningsAdded: 0, learningsSkipped: 0, proposalsAdded: 0, proposalsSkipped: 0 };

describe("baton import, each format twice", () => {
  const cases = [
    {
      name: "a pai-seed seed.json",
      target: path.join(ROOT, "test/fixtures/seed.json"),
      first: { seed: { files: 1, learningsAdded: 4, learningsSkipped: 0, proposalsAdded: 2, proposalsSkipped: 0 } },
      second: { seed: { files: 1, learningsAdded: 0, learningsSkipped: 4, proposalsAdded: 0, proposalsSkipped: 2 } },
    },
    {
      name: "Amplifier handoff folders (a missing project is created)",
      target: path.join(IMPORT, "amplifier"),
      first: { handoffs: { ...zero, added: 3 }, projectsCreated: ["docs-site"] },
      second: { handoffs: { ...zero, unchanged: 3 }, projectsCreated: [] },
    },
    {
      name: "task memory files",
      target: path.join(IMPORT, "repo/backlog/memory"),
      first: { taskMemories: { ...zero, added: 2 } },
      second: { taskMemories: { ...zero, unchanged: 2 } },
    },
    {
      name: "spx session folders (todo queued; doing and archive skipped)",
      target: path.join(IMPORT, "repo/.spx"),
      first: { sessions: { ...noSessions, added: 2, skippedDoing: 1, skippedArchive: 1 } },
      second: { sessions: { ...noSessions, unchanged: 2, skippedDoing: 1, skippedArchive: 1 } },
    },
  ];

  it.each(cases)("$name", async ({ target, first, second }) => {
    for (const expected of [first, second]) {
      const result = await runBaton(["import", target], { cwd: tmp.dir, env });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      const { ok, summary } = JSON.parse(result.stdout);
      expect(ok).toBe(true);
      expect(summary).toEqual({
        seed: noSeed,
        handoffs: zero,
        taskMemories: zero,
        sessions: noSessions,
        projectsCreated: [],
        errors: [],
        ...expected,
      });
    }
  });

  it("stored what the files say", async () => {
    const api = apiClient(server.url, token);
    const web = (await api("GET", "/api/projects/web/handoffs?limit=100")).json.items;
    expect(web.map((h: { sessionId: string }) => h.sessionId).sort()).toEqual(["2026-01-10-a1", "2026-01-11-b2"]);
    // Written oldest first, so the newest Amplifier handoff is the latest.
    const latest = (await api("GET", "/api/projects/web/handoffs/latest")).json.handoff;
    expect(latest.sessionId).toBe("2026-01-11-b2");
    expect(latest.markdown).toBe(
      "Imported from Amplifier · session 2026-01-11-b2 · 2026-01-11T09:05:00Z · 8 turns\n\n# Session handoff\n\n## What was done\n- Token list renders; the revoke button is a stub.\n\n## Open\n- The empty state after the last token is revoked.\n\nFiles changed: components/tokens/token-list.tsx\n",
    );
    const first = web.find((h: { sessionId: string }) => h.sessionId === "2026-01-10-a1");
    expect(first.markdown).toContain("Files changed: lib/auth/api-tokens.ts, app/api/tokens/route.ts\n");
    expect((await api("GET", "/api/projects/docs-site/handoffs")).json.items).toHaveLength(1);

    const memory = (await api("GET", "/api/projects/web/tasks/task-368/memory")).json.memory;
    expect(memory.markdown).toBe("# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n- [ ] empty state\n");

    const sessions = (await api("GET", "/api/projects/web/sessions?limit=100")).json.items;
    expect(sessions.map((s: { id: string; status: string; priority: number }) => [s.id, s.status, s.priority])).toEqual([
      ["2026-01-15_09-00-00", "todo", 1],
      ["2026-01-15_10-30-00", "todo", 2],
    ]);
    const revoke = sessions.find((s: { id: string }) => s.id === "2026-01-15_09-00-00");
    expect(revoke).toMatchObject({ branch: "feat/revoke", specs: ["docs/spec.md"], files: ["components/tokens/token-list.tsx"], tags: ["auth", "dashboard"] });
    expect(revoke.markdown.startsWith('---\nid: "2026-01-15_09-00-00"\npriority: high\n')).toBe(true);
  });

  it("the whole tree at once finds every format, and everything is already there", async () => {
    const result = await runBaton(["import", IMPORT], { cwd: tmp.dir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).summary).toEqual({
      seed: noSeed,
      handoffs: { ...zero, unchanged: 3 },
      taskMemories: { ...zero, unchanged: 2 },
      sessions: { ...noSessions, unchanged: 2, skippedDoing: 1, skippedArchive: 1 },
      projectsCreated: [],
      errors: [],
    });
  });

  it("on a terminal: a progress bar, then a summary for people", () => {
    const command = [process.execPath, path.join(ROOT, "cli/bin/baton.mjs"), "import", path.join(IMPORT, "repo")].map((a) => `'${a}'`).join(" ");
    const out = execFileSync("script", ["-qec", command, "/dev/null"], {
      env: { ...process.env, ...env, COLUMNS: "100" },
      encoding: "utf8",
    });
    expect(out).toMatch(/\r\[#{24}\] 6\/6 spx sessions/);
    expect(out).toContain("Task memory: 0 added, 0 updated, 2 already there");
    expect(out).toContain("spx sessions: 0 queued, 2 already there; 1 in doing skipped");
  });

  it.each([
    { name: "a path that does not exist", args: ["import", "/nonexistent/baton"], code: 4, stderr: /does not exist/ },
    { name: "a folder with nothing to import", args: ["import", path.join(ROOT, "cli/bin")], code: 4, stderr: /nothing to import/ },
    { name: "no path", args: ["import"], code: 2, stderr: /name what to import/ },
    { name: "a bad --project", args: ["import", IMPORT, "--project", "Not A Slug"], code: 2, stderr: /--project must be a project slug/ },
  ])("$name → exit $code", async ({ args, code, stderr }) => {
    const result = await runBaton(args, { cwd: tmp.dir, env });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(stderr);
  });

  it("a file the server refuses is reported, the rest goes on, exit 1", async () => {
    const result = await runBaton(["import", path.join(ROOT, "test/fixtures/cli/hooks/session-start.json")], { cwd: tmp.dir, env });
    expect(result.code).toBe(1);
    const { ok, summary } = JSON.parse(result.stdout);
    expect(ok).toBe(false);
    expect(summary.errors).toEqual([{ file: path.join(ROOT, "test/fixtures/cli/hooks/session-start.json"), message: expect.stringMatching(/^the seed was refused: /) }]);
  });
});

describe("baton import of spx sessions: ids are per project, and what is not stored is reported", () => {
  /** A folder holding one queued spx session file. */
  function spxFolder(name: string, id: string, text: string): string {
    const dir = path.join(tmp.dir, name, ".spx", "sessions", "todo");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${id}.md`), text);
    return path.join(tmp.dir, name, ".spx");
  }
  const summaryOf = (stdout: string) => JSON.parse(stdout) as { ok: boolean; summary: { sessions: typeof noSessions; errors: { file: string; message: string }[] } };

  it("an id another user's project already has is stored in the importer's project", async () => {
    const bo = await createUserWithToken(databaseUrl, "bo@example.com");
    await createProject(server.url, bo, "elsewhere");
    const theirs = await apiClient(server.url, bo)("POST", "/api/projects/elsewhere/sessions", { markdown: "---\nid: 2026-02-01_09-00-00\n---\nBo's work." });
    expect(theirs.status, theirs.text).toBe(201);

    const folder = spxFolder("spx-shared-id", "2026-02-01_09-00-00", "# Ana's work\n");
    for (const expected of [{ added: 1 }, { unchanged: 1 }]) {
      const result = await runBaton(["import", folder, "--project", "web"], { cwd: tmp.dir, env });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      expect(summaryOf(result.stdout).summary.sessions).toEqual({ ...noSessions, ...expected });
    }
    const stored = await apiClient(server.url, token)("GET", "/api/projects/web/sessions/2026-02-01_09-00-00");
    expect(stored.json.session.markdown).toBe('---\nid: "2026-02-01_09-00-00"\n---\n# Ana\'s work\n');
    expect((await apiClient(server.url, bo)("GET", "/api/projects/elsewhere/sessions/2026-02-01_09-00-00")).json.session.markdown).toContain("Bo's work.");
  });

  it("a session file holding a secret is stored withheld, and a second import finds it already there", async () => {
    const folder = spxFolder("spx-secret", "2026-02-03_09-00-00", "# Deploy\n\nUse the key with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY for staging.\n");
    for (const expected of [{ added: 1 }, { unchanged: 1 }]) {
      const result = await runBaton(["import", folder, "--project", "web"], { cwd: tmp.dir, env });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      expect(summaryOf(result.stdout).summary.sessions).toEqual({ ...noSessions, ...expected });
    }
    const stored = (await apiClient(server.url, token)("GET", "/api/projects/web/sessions/2026-02-03_09-00-00")).json.session.markdown as string;
    expect(stored).not.toContain("wJalrXUtnFEMI");
    expect(stored).toContain("[withheld:");
  });

  it("another document with the same id in the project is a failure: counted, named, exit 1; not 'already there'", async () => {
    const api = apiClient(server.url, token);
    expect((await api("POST", "/api/projects/web/sessions", { markdown: "---\nid: 2026-02-02_09-00-00\n---\nQueued by hand." })).status).toBe(201);
    const folder = spxFolder("spx-clash", "2026-02-02_09-00-00", "# Something else\n");
    const result = await runBaton(["import", folder, "--project", "web"], { cwd: tmp.dir, env });
    expect(result.code).toBe(1);
    const { ok, summary } = summaryOf(result.stdout);
    expect(ok).toBe(false);
    expect(summary.sessions).toEqual({ ...noSessions, failed: 1 });
    expect(summary.errors).toEqual([
      { file: path.join(folder, "sessions/todo/2026-02-02_09-00-00.md"), message: expect.stringMatching(/web already has another session document with the id "2026-02-02_09-00-00": not imported/) },
    ]);
    expect((await api("GET", "/api/projects/web/sessions/2026-02-02_09-00-00")).json.session.markdown).toBe("---\nid: 2026-02-02_09-00-00\n---\nQueued by hand.");
  });
});


describe("baton import of what holds secrets, what cannot be read, and a token refused", () => {
  const summaryOf = (stdout: string) => JSON.parse(stdout) as { ok: boolean; summary: Record<string, Record<string, number>> & { errors: { file: string; message: string }[] } };
  const write = (file: string, text: string | Buffer) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };

  it("a handoff and a task memory holding a secret are already there the second time, and the newer handoff stays the latest", async () => {
    const root = path.join(tmp.dir, "secrets-tree");
    write(path.join(root, "projects/vault/sessions/s1/handoff.md"), "---\nsession_id: s1\ntimestamp: 2026-01-01T10:00:00Z\n---\nSet api_key=ZXhh9182736455abcdefQQ in the env.\n");
    write(path.join(root, "projects/vault/sessions/s5/handoff.md"), "---\nsession_id: s5\ntimestamp: 2026-01-05T10:00:00Z\n---\nThe newest handoff.\n");
    write(path.join(root, "backlog/memory/task-77.md"), "---\ntask_id: task-77\n---\nThe password=hunter2isverysecret99 is in the vault.\n");
    for (const again of [false, true]) {
      const result = await runBaton(["import", root, "--project", "vault"], { cwd: tmp.dir, env });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      const { summary } = summaryOf(result.stdout);
      expect(summary.handoffs).toEqual({ ...zero, ...(again ? { unchanged: 2 } : { added: 2 }) });
      expect(summary.taskMemories).toEqual({ ...zero, ...(again ? { unchanged: 1 } : { added: 1 }) });
    }
    const latest = await apiClient(server.url, token)("GET", "/api/projects/vault/handoffs/latest");
    expect(latest.json.handoff.markdown).toContain("The newest handoff.");
  });

  it("a file too large to import fails alone; the others are imported", async () => {
    const root = path.join(tmp.dir, "big-tree");
    write(path.join(root, "projects/bulk/sessions/a/handoff.md"), "---\nsession_id: a\n---\nA small handoff.\n");
    write(path.join(root, "projects/bulk/sessions/b/handoff.md"), Buffer.alloc(17 * 1024 * 1024, "x"));
    const result = await runBaton(["import", root], { cwd: tmp.dir, env });
    expect(result.code).toBe(1);
    const { summary } = summaryOf(result.stdout);
    expect(summary.handoffs).toEqual({ ...zero, added: 1, failed: 1 });
    expect(summary.errors).toEqual([{ file: path.join(root, "projects/bulk/sessions/b/handoff.md"), message: expect.stringMatching(/more than an import takes from one file/) }]);
  });

  it("a seed.json with a byte order mark imports, and its secrets are withheld as everywhere else", async () => {
    const file = path.join(tmp.dir, "bom-seed.json");
    const seed = { version: "1.0.0", identity: { principalName: "Ana", aiName: "Bee" }, learned: { patterns: [{ id: "p-secret", content: "Deploy with token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 always", source: "x", extractedAt: "2026-01-01T00:00:00Z", confirmed: true, tags: [] }], insights: [], selfKnowledge: [] } };
    writeFileSync(file, "\uFEFF" + JSON.stringify(seed));
    const result = await runBaton(["import", file], { cwd: tmp.dir, env });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    const stored = JSON.stringify((await apiClient(server.url, token)("GET", "/api/seed")).json);
    expect(stored).toContain("[withheld:");
    expect(stored).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
  });

  it("a token the server refuses stops the import at once: exit 6, one message", async () => {
    const result = await runBaton(["import", path.join(IMPORT, "amplifier")], { cwd: tmp.dir, env: { ...env, BATON_TOKEN: "baton_not_a_real_token_000000000000000" } });
    expect(result.code).toBe(6);
    expect(result.stderr.match(/not valid/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});
