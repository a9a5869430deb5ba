import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { tableCounts } from "../support/fixtures";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { homeEnv, makeRepo } from "../fixtures/cli/cli-env";

// Issue 23, item 2: `baton remember "…"` run as an agent runs it (the real CLI, a child process whose
// stdout is a pipe, so JSON) against the real server: the proposal lands in the review queue marked as
// the agent's, for the project of the repository, or personal when none matches.

const world = testWorld({ users: ["ana", "bo"], projects: { web: "ana" }, members: [], tokens: { anaRead: { user: "ana", scope: "read" } }, tempPrefix: "baton-cli-remember-" });
const tmp = tempDir("baton-cli-remember-home-");
afterAll(() => tmp.remove());

const webRepo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git" });
const otherRepo = makeRepo(path.join(tmp.dir, "src", "scratch"));

const remember = (args: string[], options: { cwd?: string; who?: string; env?: Record<string, string> } = {}) =>
  runCli(["remember", ...args], {
    cwd: options.cwd ?? webRepo,
    env: homeEnv(path.join(tmp.dir, "home"), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens[options.who ?? "ana"]!, BATON_SESSION_ID: "", CLAUDE_SESSION_ID: "", ...options.env }),
  });

const pending = async (query = "") => (await world.as("ana")("GET", `/api/proposals${query}`)).json.items as Record<string, unknown>[];

describe("baton remember", () => {
  it("proposes the learning for the repository's project, marked as the agent's, with the session as its source", async () => {
    const res = await remember(["The integration tests need docker compose up -d db first.", "--kind", "insight"], { env: { CLAUDE_SESSION_ID: "sess-42" } });
    expect(res.code, res.stderr).toBe(0);
    const answer = JSON.parse(res.stdout);
    expect(answer).toMatchObject({ ok: true, merged: false, proposal: { kind: "insight", project: "web", method: "agent", source: "sess-42", status: "pending" } });
    expect(await pending("?project=web")).toMatchObject([{ id: answer.proposal.id, content: "The integration tests need docker compose up -d db first.", method: "agent" }]);
  });

  it("BATON_SESSION_ID wins over CLAUDE_SESSION_ID; without either the source is remember; the kind defaults to pattern", async () => {
    const both = await remember(["Run make gen after editing the API schema, never edit the generated client."], { env: { BATON_SESSION_ID: "codex-7", CLAUDE_SESSION_ID: "sess-42" } });
    expect(both.code, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout).proposal).toMatchObject({ kind: "pattern", source: "codex-7", project: "web" });
    const none = await remember(["Staging lives in eu-west-1, not us-east-1."]);
    expect(JSON.parse(none.stdout).proposal).toMatchObject({ source: "remember" });
  });

  it("a repository in no project of the user's gets a personal proposal", async () => {
    const res = await remember(["Prefer rg over grep -r in large repositories."], { cwd: otherRepo });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).proposal).toMatchObject({ project: null, method: "agent" });
  });

  it("--project names the project; the same learning again merges into the pending one", async () => {
    const first = await remember(["CI runs with TZ=UTC; that is why the date test failed only locally.", "--project", "web"], { cwd: otherRepo });
    expect(JSON.parse(first.stdout).proposal).toMatchObject({ project: "web" });
    const again = await remember(["CI runs with TZ=UTC, that is why the date test failed only locally"], { cwd: webRepo });
    expect(JSON.parse(again.stdout)).toMatchObject({ merged: "proposal", proposal: { id: JSON.parse(first.stdout).proposal.id, mergedCount: 1 } });
  });

  it.each([
    { name: "nothing to remember", args: [], code: 2, message: "say what to remember" },
    { name: "blank text", args: ["   "], code: 2, message: "say what to remember" },
    { name: "a kind an agent does not propose", args: ["x y z", "--kind", "self_knowledge"], code: 2, message: "--kind must be pattern or insight" },
    { name: "a project that is not the user's", args: ["x y z", "--project", "nope"], code: 4, message: "nope" },
    { name: "a read token", args: ["x y z"], who: "anaRead", code: 6, message: "" },
  ])("fails with a typed exit code, storing nothing: $name", async ({ args, code, message, who }) => {
    const before = await tableCounts(world.databaseUrl);
    const res = await remember(args, { who });
    expect(res.code, res.stdout + res.stderr).toBe(code);
    expect(res.stdout + res.stderr).toContain(message);
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
  });

  it("the plugin's /remember command line works as the model fills it in, for a learning that starts with a dash", async () => {
    const template = readFileSync(path.join(ROOT, "plugins/baton/commands/remember.md"), "utf8");
    const line = /^\s*(node .* remember .*)$/m.exec(template)![1]!;
    const learning = "-v prints the CLI's version: check it before filing a bug.";
    const command = line.replace("<pattern|insight>", "insight").replace("<the learning>", learning.replace(/[$`"\\]/g, "\\$&"));
    const env = homeEnv(path.join(tmp.dir, "home"), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, BATON_SESSION_ID: "", CLAUDE_SESSION_ID: "", CLAUDE_PLUGIN_ROOT: path.join(ROOT, "plugins/baton") });
    const res = await runProcess("sh", ["-c", command], { cwd: webRepo, env });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).proposal).toMatchObject({ kind: "insight", content: learning });
  });
});
