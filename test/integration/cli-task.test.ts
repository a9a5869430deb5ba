import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { createProject, createUserWithToken } from "../support/fixtures";
import { startModelDouble } from "../support/model-double";
import { runProcess } from "../support/run-process";
import { ROOT, startServer, tempDir, type RunningServer } from "../support/server";
import { claudeCodeEnv, git, homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";

// `baton task start|stop|show`: the active task on the server, its memory file, and one marked
// block in CLAUDE.local.md that imports it, with the rest of that file kept byte for byte; both kept
// out of git (.git/info/exclude), CLAUDE.md untouched but for a block an earlier Baton left there.

const tmp = tempDir("baton-cli-task-");
const databaseUrl = `file:${tmp.dir}/task.db`;
let server: RunningServer;
let token: string;
let env: Record<string, string>;
const MEMORY = "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button\n";
const block = (id: string, eol = "\n") => `<!-- baton:task -->${eol}@backlog/memory/${id}.md${eol}<!-- /baton:task -->`;

beforeAll(async () => {
  server = await startServer({ databaseUrl });
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  await createProject(server.url, token, "web");
  expect((await apiClient(server.url, token)("PUT", "/api/projects/web/tasks/task-368/memory", { markdown: MEMORY })).status).toBe(200);
  env = homeEnv(path.join(tmp.dir, "home"), { BATON_URL: server.url, BATON_TOKEN: token, BATON_PROJECT: "web" });
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

let n = 0;
const freshRepo = () => makeRepo(path.join(tmp.dir, "repos", `r${++n}`));

describe("baton task start / stop and CLAUDE.local.md", () => {
  const cases: { name: string; before: string | null; started: string; stopped: string }[] = [
    { name: "no CLAUDE.local.md", before: null, started: `${block("task-368")}\n`, stopped: "" },
    { name: "an empty CLAUDE.local.md", before: "", started: `${block("task-368")}\n`, stopped: "" },
    { name: "LF, final newline", before: "# Web\n\nUse pnpm.\n", started: `# Web\n\nUse pnpm.\n\n${block("task-368")}\n`, stopped: "# Web\n\nUse pnpm.\n" },
    { name: "CRLF, final newline", before: "# Web\r\n\r\nUse pnpm.\r\n", started: `# Web\r\n\r\nUse pnpm.\r\n\r\n${block("task-368", "\r\n")}\r\n`, stopped: "# Web\r\n\r\nUse pnpm.\r\n" },
    { name: "LF, no final newline", before: "# Web\n\nUse pnpm.", started: `# Web\n\nUse pnpm.\n\n${block("task-368")}`, stopped: "# Web\n\nUse pnpm." },
    { name: "CRLF, no final newline", before: "# Web\r\nUse pnpm.", started: `# Web\r\nUse pnpm.\r\n\r\n${block("task-368", "\r\n")}`, stopped: "# Web\r\nUse pnpm." },
    { name: "trailing blank lines and spaces", before: "Notes  \n\n\n", started: `Notes  \n\n\n\n${block("task-368")}\n`, stopped: "Notes  \n\n\n" },
    {
      name: "a block of another task in the middle",
      before: `# Web\n\n${block("task-1")}\n\nMore rules.\n`,
      started: `# Web\n\n${block("task-368")}\n\nMore rules.\n`,
      stopped: "# Web\n\nMore rules.\n",
    },
    {
      name: "two blocks (kept to one)",
      before: `A\n${block("task-1")}\nB\n${block("task-2")}\nC\n`,
      started: `A\n${block("task-368")}\nB\nC\n`,
      stopped: "A\nB\nC\n",
    },
  ];

  it.each(cases)("$name: start adds one block, a second start changes nothing, stop removes it", async ({ before, started, stopped }) => {
    const repo = freshRepo();
    const claudeMd = path.join(repo, "CLAUDE.local.md");
    if (before !== null) writeFileSync(claudeMd, before);

    const first = await runBaton(["task", "start", "task-368"], { cwd: repo, env });
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(claudeMd, "utf8")).toBe(started);
    const memoryFile = path.join(repo, "backlog", "memory", "task-368.md");
    const memory = readFileSync(memoryFile, "utf8");
    expect(memory).toMatch(/^---\ntask_id: task-368\ncreated: \d{4}-\d\d-\d\dT[\d:.]+Z\nupdated: \d{4}-\d\d-\d\dT[\d:.]+Z\n---\n\n/);
    expect(memory.endsWith(`---\n\n${MEMORY}`)).toBe(true);
    const mtimes = [statSync(claudeMd).mtimeMs, statSync(memoryFile).mtimeMs];

    const second = await runBaton(["task", "start", "task-368"], { cwd: repo, env });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ taskId: "task-368", importFile: "unchanged", memorySource: "local file" });
    expect(readFileSync(claudeMd, "utf8")).toBe(started);
    expect(readFileSync(memoryFile, "utf8")).toBe(memory);
    expect([statSync(claudeMd).mtimeMs, statSync(memoryFile).mtimeMs]).toEqual(mtimes);

    const stop = await runBaton(["task", "stop"], { cwd: repo, env });
    expect(stop.code, stop.stderr).toBe(0);
    // A file left empty goes: Baton made it, or it held nothing.
    expect(existsSync(claudeMd) ? readFileSync(claudeMd, "utf8") : "").toBe(stopped);
    expect(existsSync(memoryFile)).toBe(true);
  });
});

describe("baton task keeps git status clean", () => {
  const TEAM_RULES = "# Web\n\nUse pnpm.\n";

  /** A repository whose CLAUDE.md the team committed. */
  function committedRepo(name: string, claudeMd: string): string {
    const repo = makeRepo(path.join(tmp.dir, "git", name), { commits: ["Initial commit"] });
    writeFileSync(path.join(repo, "CLAUDE.md"), claudeMd);
    git(repo, "add", "CLAUDE.md");
    git(repo, "commit", "-q", "-m", "Team rules");
    return repo;
  }

  it("start and stop leave git status empty and CLAUDE.md as committed; the exclusions are the repository's own", async () => {
    const repo = committedRepo("clean", TEAM_RULES);
    const start = await runBaton(["task", "start", "task-368"], { cwd: repo, env });
    expect(start.code, start.stderr).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({ importFile: "updated", legacyImportRemoved: false, gitExcluded: ["/CLAUDE.local.md", "/backlog/memory/task-368.md"] });
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(readFileSync(path.join(repo, "CLAUDE.md"), "utf8")).toBe(TEAM_RULES);
    expect(readFileSync(path.join(repo, "CLAUDE.local.md"), "utf8")).toBe(`${block("task-368")}\n`);
    expect(readFileSync(path.join(repo, ".git", "info", "exclude"), "utf8")).toMatch(/^\/CLAUDE\.local\.md\n\/backlog\/memory\/task-368\.md\n$/m);
    expect(existsSync(path.join(repo, ".gitignore"))).toBe(false);

    // Again: nothing more is added to the exclude file.
    const again = await runBaton(["task", "start", "task-368"], { cwd: repo, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ importFile: "unchanged", gitExcluded: [] });

    const stop = await runBaton(["task", "stop"], { cwd: repo, env });
    expect(stop.code, stop.stderr).toBe(0);
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(readFileSync(path.join(repo, "CLAUDE.md"), "utf8")).toBe(TEAM_RULES);
  });

  it("the real Claude Code reads the memory through CLAUDE.local.md, beside the team's CLAUDE.md", async () => {
    const claude = execFileSync("bash", [path.join(ROOT, "scripts/ensure-claude-code.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    const model = await startModelDouble();
    try {
      const repo = committedRepo("claude", TEAM_RULES);
      expect((await runBaton(["task", "start", "task-368"], { cwd: repo, env })).code).toBe(0);
      const session = await runProcess(claude, ["-p", "What is the task?"], { env: claudeCodeEnv(path.join(tmp.dir, "home-claude"), model.url), cwd: repo, timeoutMs: 120_000 });
      expect(session.code, session.stderr).toBe(0);
      const sent = JSON.stringify(model.requests.map((r) => r.body));
      expect(sent).toContain("Use pnpm.");
      expect(sent).toContain("- [ ] revoke button");
      expect(git(repo, "status", "--porcelain")).toBe("");
    } finally {
      await model.stop();
    }
  }, 180_000);

  it("in a git worktree, the exclusion goes where git reads it", async () => {
    const main = committedRepo("main", TEAM_RULES);
    const worktree = path.join(tmp.dir, "git", "feature");
    git(main, "worktree", "add", "-q", "-b", "feature", worktree);
    const start = await runBaton(["task", "start", "task-368"], { cwd: worktree, env });
    expect(start.code, start.stderr).toBe(0);
    expect(git(worktree, "status", "--porcelain")).toBe("");
    expect(readFileSync(path.join(worktree, "CLAUDE.local.md"), "utf8")).toContain("@backlog/memory/task-368.md");
  });

  it("a block an earlier Baton left in CLAUDE.md is removed; the import moves to CLAUDE.local.md", async () => {
    const repo = committedRepo("legacy", `${TEAM_RULES}\n${block("task-1")}\n`);
    const start = await runBaton(["task", "start", "task-368"], { cwd: repo, env });
    expect(start.code, start.stderr).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({ legacyImportRemoved: true, importFile: "updated" });
    expect(readFileSync(path.join(repo, "CLAUDE.md"), "utf8")).toBe(TEAM_RULES);
    // The one change git sees is the committed block going away.
    expect(git(repo, "status", "--porcelain")).toBe("M CLAUDE.md");
    expect(readFileSync(path.join(repo, "CLAUDE.local.md"), "utf8")).toBe(`${block("task-368")}\n`);
  });

  it("stop alone also removes a block an earlier Baton left in CLAUDE.md, naming its task", async () => {
    const repo = committedRepo("legacy-stop", `${TEAM_RULES}\n${block("task-368")}\n`);
    const stop = await runBaton(["task", "stop"], { cwd: repo, env });
    expect(stop.code, stop.stderr).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ taskId: "task-368", legacyImportRemoved: true });
    expect(readFileSync(path.join(repo, "CLAUDE.md"), "utf8")).toBe(TEAM_RULES);
  });
});

describe("baton task and the server", () => {
  it("sets and clears the active task, writes a template for a task without memory (on the server at once), and saves the file back at stop", async () => {
    const repo = freshRepo();
    const api = apiClient(server.url, token);
    const template = "# task-9\n\n## Goal\n\n## Notes\n\n## Next\n";
    const start = await runBaton(["task", "start", "task-9"], { cwd: repo, env });
    expect(start.code, start.stderr).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({ ok: true, taskId: "task-9", project: "web", memorySource: "template", memoryStored: true, importFile: "updated" });
    expect((await api("GET", "/api/projects/web/active-task")).json.activeTask.taskId).toBe("task-9");
    const file = path.join(repo, "backlog", "memory", "task-9.md");
    expect(readFileSync(file, "utf8")).toContain(`---\n\n${template}`);
    // The server has the memory at once, so another machine's session (and the dashboard) sees the task.
    expect((await api("GET", "/api/projects/web/tasks/task-9/memory")).json.memory.markdown).toBe(template);
    const second = await runBaton(["task", "start", "task-9"], { cwd: repo, env });
    expect(JSON.parse(second.stdout)).toMatchObject({ memorySource: "local file", memoryStored: false });
    expect((await api("GET", "/api/projects/web/tasks/task-9/memory")).json.memory.markdown).toBe(template);

    const show = await runBaton(["task", "show"], { cwd: repo, env });
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ taskId: "task-9", active: true, memory: { markdown: template }, file });

    writeFileSync(file, readFileSync(file, "utf8").replace("## Notes\n", "## Notes\n\nThe revoke route needs an owner check.\n"));
    const stop = await runBaton(["task", "stop"], { cwd: repo, env });
    expect(stop.code, stop.stderr).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ taskId: "task-9", memorySaved: true, importFile: "updated" });
    expect((await api("GET", "/api/projects/web/active-task")).json.activeTask).toBeNull();
    expect((await api("GET", "/api/projects/web/tasks/task-9/memory")).json.memory.markdown).toBe(
      "# task-9\n\n## Goal\n\n## Notes\n\nThe revoke route needs an owner check.\n\n## Next\n",
    );
    expect(existsSync(file)).toBe(true);
  });

  it("stop does not overwrite a memory written on the server after the file was made (MCP, the dashboard, another machine), and saves again once it is its own", async () => {
    const repo = freshRepo();
    const api = apiClient(server.url, token);
    const file = path.join(repo, "backlog", "memory", "task-21.md");
    expect((await runBaton(["task", "start", "task-21"], { cwd: repo, env })).code).toBe(0);
    // Saved at stop, then edited and saved again: the file keeps the server's time of its own save.
    writeFileSync(file, readFileSync(file, "utf8").replace("## Notes\n", "## Notes\n\nFirst note.\n"));
    expect(JSON.parse((await runBaton(["task", "stop"], { cwd: repo, env })).stdout)).toMatchObject({ memorySaved: true });
    expect((await runBaton(["task", "start", "task-21"], { cwd: repo, env })).code).toBe(0);
    writeFileSync(file, readFileSync(file, "utf8").replace("First note.\n", "First note.\nSecond note.\n"));
    expect(JSON.parse((await runBaton(["task", "stop"], { cwd: repo, env })).stdout)).toMatchObject({ memorySaved: true });
    expect((await api("GET", "/api/projects/web/tasks/task-21/memory")).json.memory.markdown).toContain("First note.\nSecond note.\n");

    // Now the agent records its progress through MCP (or someone in the dashboard) while the file stays as it was.
    expect((await runBaton(["task", "start", "task-21"], { cwd: repo, env })).code).toBe(0);
    const fileBefore = readFileSync(file, "utf8");
    const newer = "# task-21\n\n## Notes\n\nDone through MCP: the owner check is merged.\n";
    expect((await api("PUT", "/api/projects/web/tasks/task-21/memory", { markdown: newer })).status).toBe(200);
    const stop = await runBaton(["task", "stop"], { cwd: repo, env });
    expect(stop.code, stop.stderr).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ memorySaved: false, newerOnServer: { markdown: newer } });
    expect((await api("GET", "/api/projects/web/tasks/task-21/memory")).json.memory.markdown).toBe(newer);
    expect(readFileSync(file, "utf8")).toBe(fileBefore);
  });

  it("a memory file kept from before (the server had none) is stored at start and saved at stop, its other front matter kept", async () => {
    const repo = freshRepo();
    const file = path.join(repo, "backlog", "memory", "task-22.md");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "---\ntask_id: task-22\nowner: team-payments\ncreated: 2025-01-01T00:00:00.000Z\nupdated: 2025-01-02T00:00:00.000Z\n---\n\n# task-22\n\nWritten last year.\n");
    expect(JSON.parse((await runBaton(["task", "start", "task-22"], { cwd: repo, env })).stdout)).toMatchObject({ memorySource: "local file", memoryStored: true });
    writeFileSync(file, readFileSync(file, "utf8").replace("Written last year.\n", "Written last year.\nAnd today.\n"));
    const stop = await runBaton(["task", "stop"], { cwd: repo, env });
    expect(JSON.parse(stop.stdout)).toMatchObject({ memorySaved: true, newerOnServer: null });
    expect((await apiClient(server.url, token)("GET", "/api/projects/web/tasks/task-22/memory")).json.memory.markdown).toBe("# task-22\n\nWritten last year.\nAnd today.\n");
    expect(readFileSync(file, "utf8")).toMatch(/^---\ntask_id: task-22\nowner: team-payments\ncreated: 2025-01-01T00:00:00.000Z\nupdated: 20\d\d-/);
  });

  it("a write that fails (a full disk, here a file-size limit) leaves the developer's CLAUDE.local.md as it was", async () => {
    const repo = freshRepo();
    const notes = Array.from({ length: 1500 }, (_, i) => `- my own note ${i}: keep this line`).join("\n") + "\n";
    writeFileSync(path.join(repo, "CLAUDE.local.md"), notes);
    const cli = path.join(ROOT, "cli/bin/baton.mjs");
    // ulimit -f counts 512-byte blocks: 16 KB, under the 50 KB CLAUDE.local.md needs with the block.
    const result = await runProcess("bash", ["-c", `ulimit -f 32 && exec "${process.execPath}" "${cli}" task start task-368`], { cwd: repo, env });
    expect(result.code).toBe(1);
    expect(readFileSync(path.join(repo, "CLAUDE.local.md"), "utf8")).toBe(notes);
    expect(readdirSync(repo).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // The task was made active before the write failed: the tests after this one start with none.
    expect((await runBaton(["task", "stop", "task-368"], { cwd: repo, env })).code).toBe(0);
  });

  it("show names a task, from the server's memory", async () => {
    const result = await runBaton(["task", "show", "task-368"], { cwd: freshRepo(), env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ taskId: "task-368", active: false, memory: { markdown: MEMORY }, file: null });
  });

  it.each([
    { name: "no task id", args: ["task", "start"], code: 2, stderr: /task id is required/ },
    { name: "a task id that is a path", args: ["task", "start", "../etc"], code: 2, stderr: /not a task id/ },
    { name: "an unknown subcommand", args: ["task", "finish", "task-1"], code: 2, stderr: /use start, stop or show/ },
    { name: "show without an active task", args: ["task", "show"], code: 4, stderr: /no active task in web/ },
    { name: "show of a task nobody wrote", args: ["task", "show", "task-404"], code: 4, stderr: /no memory for task-404/ },
    { name: "an unknown project", args: ["task", "start", "task-1", "--project", "ghost"], code: 4, stderr: /No project "ghost"/ },
  ])("$name → exit $code", async ({ args, code, stderr }) => {
    const result = await runBaton(args, { cwd: freshRepo(), env });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(stderr);
  });
});
