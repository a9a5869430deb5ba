import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalSafe } from "@/cli/src/output/terminal-safe";
import { apiClient } from "../support/api";
import { runProcess } from "../support/run-process";
import { createProject, createUserWithToken } from "../support/fixtures";
import { ROOT, startServer, tempDir, type RunningServer } from "../support/server";
import { homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";

// What a teammate wrote reaches another member's terminal through `baton learnings` and `baton pickup`.
// Printed raw, its control sequences would run there: set the clipboard (OSC 52), clear the screen,
// hide a line behind a carriage return or a right-to-left override.

const tmp = tempDir("baton-cli-terminal-");
const databaseUrl = `file:${tmp.dir}/terminal.db`;
const BATON = path.join(ROOT, "cli/bin/baton.mjs");
const HOSTILE = "Deploy with make ship\u001b]52;c;cm0gLXJmIH4=\u0007 then\u001b[2J\rall clear \u202eexe.gnp\u202c done\u009b31m";
let server: RunningServer;
let repo: string;
let env: Record<string, string>;

/** The CLI with a terminal for its stdout and stderr (util-linux `script`), as a person runs it. */
const inTerminal = (args: string[]) => runProcess("script", ["-qec", [process.execPath, BATON, ...args].map((a) => `'${a}'`).join(" "), "/dev/null"], { env, cwd: repo });

beforeAll(async () => {
  server = await startServer({ databaseUrl });
  const token = await createUserWithToken(databaseUrl, "ana@example.com");
  await createProject(server.url, token, "web");
  const api = apiClient(server.url, token);
  expect((await api("POST", "/api/learnings", { kind: "pattern", content: HOSTILE, project: "web" })).status).toBe(201);
  expect((await api("POST", "/api/projects/web/sessions", { markdown: `---\nfiles: ["notes.txt"]\n---\n# Ship it\n\n${HOSTILE}\n` })).status).toBe(201);
  repo = makeRepo(path.join(tmp.dir, "web"), { remote: "git@github.com:acme/web.git", commits: ["One"] });
  // A file in the repository, as a teammate committed it: pickup prints it as it is (not quoted).
  writeFileSync(path.join(repo, "notes.txt"), `${HOSTILE}\n`);
  env = homeEnv(path.join(tmp.dir, "home"), { BATON_URL: server.url, BATON_TOKEN: token, BATON_PROJECT: "web" });
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

const expectNoControls = (output: string) => {
  // The terminal itself ends lines with \r\n; nothing else of the C0/C1 controls or bidi overrides.
  expect(output.replace(/\r\n/g, "\n")).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  expect(output).toContain("\\u{1b}]52;c;cm0gLXJmIH4=\\u{7}");
};

describe("a teammate's words at a terminal", () => {
  it("baton learnings shows control characters as escapes on a terminal, and as they are in JSON for scripts", async () => {
    const shown = await inTerminal(["learnings", "--all"]);
    expect(shown.code, shown.stdout).toBe(0);
    expectNoControls(shown.stdout);
    expect(shown.stdout).toContain("\\u{202e}exe.gnp");
    expect(shown.stdout).toContain("Deploy with make ship");

    const piped = await runBaton(["learnings", "--all"], { cwd: repo, env });
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout).items.map((l: { content: string }) => l.content)).toContain(HOSTILE);
  });

  it("baton pickup prints a teammate's session document and the files it lists safely on a terminal", async () => {
    const shown = await inTerminal(["pickup"]);
    expect(shown.code, shown.stdout).toBe(0);
    // The file, printed as it is: its controls as escapes.
    expectNoControls(shown.stdout);
    expect(shown.stdout).toContain("--- notes.txt ---");
    // The document, quoted: the quote itself (lib/context/pack/fence.ts) drops them, for agents too.
    expect(shown.stdout).toContain("> Deploy with make ship]52;c;cm0gLXJmIH4= then[2J");
  });

  it("terminalSafe keeps line breaks, tabs and emoji", () => {
    expect(terminalSafe("a\r\nb\tc 👨‍👩‍👧 ü\n")).toBe("a\nb\tc 👨‍👩‍👧 ü\n");
    expect(terminalSafe("x\ry\u001b[0m")).toBe("x\\u{d}y\\u{1b}[0m");
  });
});
