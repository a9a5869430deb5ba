import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";
import { tableCounts } from "../support/fixtures";
import { runProcess } from "../support/run-process";
import { ROOT } from "../support/server";
import { testWorld, WEB_TEAM } from "../support/world";

// `baton session new|list|pickup|complete|release` for session documents and `baton handoff
// show|write` for handoffs, each as a child process against the real server. ana owns web, bo is a
// member of it, vi a viewer.
const world = testWorld(WEB_TEAM);

let repo: string;
const envOf = (who: string) => homeEnv(path.join(world.dir, `home-${who}`), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens[who]! });
const baton = (who: string, args: string[], input?: string) => {
  repo ??= makeRepo(path.join(world.dir, "src", "web"), { branch: "feat/board", remote: "git@github.com:acme/web.git", commits: ["One"] });
  return runBaton(args, { cwd: repo, env: envOf(who), input });
};
const json = (stdout: string) => JSON.parse(stdout);

describe("baton session", () => {
  it("new queues, list shows the queue, pickup claims, complete finishes; release gives one back", async () => {
    const first = await baton("ana", ["session", "new", "--id", "s-board", "--priority", "high", "--title", "Build the board", "-m", "Columns per status."]);
    expect(first.code, first.stderr).toBe(0);
    expect(json(first.stdout).session).toMatchObject({ id: "s-board", project: "web", status: "todo", priority: 1, branch: "feat/board" });
    const second = await baton("ana", ["session", "new", "--id", "s-chart"], "Fix the chart's labels.\n");
    expect(second.code, second.stderr).toBe(0);

    const listed = await baton("bo", ["session", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(json(listed.stdout)).toMatchObject({ ok: true, project: "web", nextCursor: null });
    expect(json(listed.stdout).items.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ["s-board", "todo"],
      ["s-chart", "todo"],
    ]);

    const picked = await baton("bo", ["session", "pickup"]);
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toMatch(/^Session claimed: s-board\n\n=== Session Content ===\nSession document \(by [^)]+\), quoted:\n> ---\n/);
    expect(picked.stdout).toContain("> # Build the board\n>\n> Columns per status.");
    const short = await baton("ana", ["pickup", "s-chart"]);
    expect(short.stdout).toMatch(/^Session claimed: s-chart\n/);

    const doing = await baton("bo", ["session", "list", "--status", "doing"]);
    expect(json(doing.stdout).items.map((s: { id: string; claimedBy: { name: string } }) => [s.id, s.claimedBy.name])).toEqual([
      ["s-board", "bo"],
      ["s-chart", "ana"],
    ]);

    // bo may not finish ana's claim; ana (an owner) could, but gives it back instead.
    const notHis = await baton("bo", ["session", "release", "s-chart"]);
    expect(notHis.code).toBe(6);
    expect(notHis.stderr).toMatch(/claimed by ana .*only its claimer or an owner of "web" may release it/);
    const done = await baton("bo", ["session", "complete", "s-board"]);
    expect(done.code, done.stderr).toBe(0);
    expect(json(done.stdout).session).toMatchObject({ id: "s-board", status: "done" });
    const released = await baton("ana", ["session", "release", "s-chart"]);
    expect(released.code, released.stderr).toBe(0);
    expect(json(released.stdout).session).toMatchObject({ id: "s-chart", status: "todo", claimedBy: null });

    const again = await baton("bo", ["session", "complete", "s-board"]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/is done, not claimed/);
    expect(json((await baton("ana", ["session", "list", "--status", "todo"])).stdout).items.map((s: { id: string }) => s.id)).toEqual(["s-chart"]);
  });

  it.each([
    { name: "front matter alone (no title, no body)", who: "ana", args: ["session", "new"], code: 2, stderr: /says nothing to do: give --title, -m TEXT, or the text on stdin/ },
    { name: "a blank -m", who: "ana", args: ["session", "new", "-m", "  \n"], code: 2, stderr: /says nothing to do/ },
    { name: "a viewer queueing", who: "vi", args: ["session", "new", "-m", "x"], code: 6, stderr: /viewer/ },
    { name: "an unknown status", who: "ana", args: ["session", "list", "--status", "waiting"], code: 2, stderr: /--status must be todo, doing, done/ },
    { name: "complete without an id", who: "ana", args: ["session", "complete"], code: 2, stderr: /session id is required/ },
    { name: "release of an unknown id", who: "ana", args: ["session", "release", "nope"], code: 4, stderr: /No session document "nope"/ },
    { name: "an unknown subcommand", who: "ana", args: ["session", "finish"], code: 2, stderr: /use new, list, pickup, complete, release/ },
  ])("$name → exit $code, nothing stored", async ({ who, args, code, stderr }) => {
    const before = await tableCounts(world.databaseUrl);
    const result = await baton(who, args);
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).toMatch(stderr);
    expect(result.stdout).toBe("");
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
  });
});

describe("baton handoff", () => {
  it("write posts a handoff on this branch, show reads it back; new points at session new", async () => {
    const written = await baton("bo", ["handoff", "write", "--session-id", "h-1"], "Did: the board's columns.\nNext: drag and drop.\n");
    expect(written.code, written.stderr).toBe(0);
    expect(json(written.stdout).handoff).toMatchObject({ project: "web", branch: "feat/board", sessionId: "h-1", author: "bo", markdown: "Did: the board's columns.\nNext: drag and drop.\n" });
    const shown = await baton("ana", ["handoff", "show"]);
    expect(json(shown.stdout)).toMatchObject({ matchedBranch: true, handoff: { markdown: "Did: the board's columns.\nNext: drag and drop.\n", author: "bo" } });
    const onMain = await baton("bo", ["handoff", "write", "--branch", "main", "-m", "Main's state."]);
    expect(json(onMain.stdout).handoff).toMatchObject({ branch: "main", sessionId: null });

    const before = await tableCounts(world.databaseUrl);
    const old = await baton("ana", ["handoff", "new", "-m", "A task for later."]);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(/"baton handoff new" is now "baton session new" .*"baton handoff write" writes a handoff/);
    const empty = await baton("ana", ["handoff", "write"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/the handoff is empty/);
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
  });
});

describe("baton session and pickup address a document by project and id", () => {
  const elsewhere = () => {
    const dir = path.join(world.dir, "src", "elsewhere");
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const statusIn = async (slug: string, id: string) =>
    String((await world.sql("SELECT d.status FROM session_docs d JOIN projects p ON p.id = d.project_id WHERE p.slug = ? AND d.id = ?", [slug, id]))[0]!.status);

  it("the same id in two of your projects: the repository's project, --project, or a 409 naming both", async () => {
    expect((await world.as("ana")("POST", "/api/projects", { slug: "api", name: "API" })).status).toBe(201);
    for (const slug of ["web", "api"]) {
      const queued = await world.as("ana")("POST", `/api/projects/${slug}/sessions`, { markdown: `---\nid: s-twin\n---\n${slug}'s twin.` });
      expect(queued.status, queued.text).toBe(201);
    }
    // In the repository (its remote says web), the id is web's.
    const picked = await baton("ana", ["pickup", "s-twin"]);
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toContain("web's twin.");
    expect([await statusIn("web", "s-twin"), await statusIn("api", "s-twin")]).toEqual(["doing", "todo"]);
    const other = await baton("ana", ["session", "pickup", "s-twin", "--project", "api"]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toContain("api's twin.");

    // Outside any project's repository the id alone is asked: in two projects, the 409 names them.
    const ambiguous = await runBaton(["session", "complete", "s-twin"], { cwd: elsewhere(), env: envOf("ana") });
    expect(ambiguous.code).toBe(3);
    expect(ambiguous.stderr).toMatch(/"s-twin" is in more than one of your projects \(api, web\)/);
    const done = await runBaton(["session", "complete", "s-twin", "--project", "api"], { cwd: elsewhere(), env: envOf("ana") });
    expect(done.code, done.stderr).toBe(0);
    expect(json(done.stdout).session).toMatchObject({ id: "s-twin", project: "api", status: "done" });
    const configured = await runBaton(["session", "release", "s-twin"], { cwd: elsewhere(), env: { ...envOf("ana"), BATON_PROJECT: "web" } });
    expect(configured.code, configured.stderr).toBe(0);
    expect(json(configured.stdout).session).toMatchObject({ project: "web", status: "todo" });
    expect([await statusIn("web", "s-twin"), await statusIn("api", "s-twin")]).toEqual(["todo", "done"]);
  });

  it("an id in one of your projects is found from anywhere; a configured project is the only one asked", async () => {
    expect((await world.as("ana")("POST", "/api/projects/web/sessions", { markdown: "---\nid: s-single\n---\nOnly in web." })).status).toBe(201);
    const picked = await runBaton(["pickup", "s-single"], { cwd: elsewhere(), env: envOf("bo") });
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toContain("Only in web.");
    const wrong = await runBaton(["session", "release", "s-single"], { cwd: elsewhere(), env: { ...envOf("bo"), BATON_PROJECT: "api" } });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/No project "api"/);
    expect(await statusIn("web", "s-single")).toBe("doing");
  });
});

describe("output to a reader that stops early", () => {
  // `| true` has exited before the CLI writes (it asks the server first): every write is to a closed pipe.
  const piped = (args: string) =>
    runProcess("bash", ["-c", `"${process.execPath}" "${path.join(ROOT, "cli/bin/baton.mjs")}" ${args} | true; exit "\${PIPESTATUS[0]}"`], { cwd: repo, env: envOf("ana") });

  it("`baton session list | true` ends quietly with the command's exit code (no EPIPE stack trace)", async () => {
    await baton("ana", ["session", "list"]);
    for (const [args, code] of [["session list", 0], ["--help", 0], ["session list --status waiting", 2]] as const) {
      const result = await piped(args);
      expect(result.stderr, args).not.toMatch(/EPIPE|Error:|at /);
      expect(result.code, args).toBe(code);
    }
  });
});
