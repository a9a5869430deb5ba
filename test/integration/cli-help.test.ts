import path from "node:path";
import { describe, expect, it } from "vitest";
import { USAGE } from "../../cli/src/usage";
import { runCli } from "../support/cli";
import { ROOT } from "../support/server";
import { homeEnv } from "../fixtures/cli/cli-env";
import { BUILT_VERSION } from "../support/versions";

// `--help` anywhere after a command prints that command's own usage and exits 0, before the command
// loads, parses its options or needs a server: never Node's parseArgs text ("Unknown option '--help'").

const env = homeEnv(path.join(ROOT, "test-results", "cli-help-home"));
const commands = Object.keys(USAGE);

/** Each command alone, then with a subcommand, an option or an argument before --help. */
const invocations: string[][] = [
  ...commands.flatMap((c) => [[c, "--help"], [c, "-h"]]),
  ["hook", "session-start", "--help"],
  ["hook", "session-end", "-h"],
  ["hook", "prompt", "--help"],
  ["hook", "pre-compact", "-h"],
  ["handoff", "write", "-m", "x", "--help"],
  ["handoff", "show", "--help"],
  ["task", "start", "task-1", "--help"],
  ["pickup", "some-id", "--no-inject", "--help"],
  ["learnings", "a query", "--help"],
  ["install", "claude", "--dry-run", "--help"],
  ["import", "seed.json", "--help"],
  ["admin", "create-token", "--email", "a@example.com", "--help"],
];

describe("baton <command> --help", () => {
  it.each(invocations)("baton %s … prints its own usage", async (...args) => {
    const result = await runCli(args, { env, cwd: ROOT });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage:\n/);
    // Every line of the synopsis names this command, and nothing else's usage is printed.
    const synopsis = result.stdout.split("\n\n")[0]!.split("\n").slice(1);
    expect(synopsis.length).toBeGreaterThan(0);
    for (const line of synopsis) expect(line).toMatch(new RegExp(`^  baton ${args[0]}\\b`));
    expect(result.stdout).not.toMatch(/Unknown option|ERR_PARSE_ARGS|unexpected argument/);
  });

  it("baton --help lists every command with its synopsis; no arguments prints it too, exit 2", async () => {
    const result = await runCli(["--help"], { env, cwd: ROOT });
    expect(result.code).toBe(0);
    for (const command of commands) expect(result.stdout).toMatch(new RegExp(`^  baton ${command}\\b`, "m"));
    expect(result.stdout).toContain(`baton ${BUILT_VERSION}`);
    const bare = await runCli([], { env, cwd: ROOT });
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe(result.stdout);
  });

  it("baton hook --help names the prompt and pre-compact hooks and their time limits", async () => {
    const result = await runCli(["hook", "prompt", "--help"], { env, cwd: ROOT });
    expect(result.stdout).toMatch(/^  baton hook prompt +UserPromptSubmit hook/m);
    expect(result.stdout).toMatch(/^  baton hook pre-compact +PreCompact hook/m);
    expect(result.stdout).toContain("BATON_PROMPT_TIMEOUT_MS (default 1000");
  });

  it("an unknown option still fails as a usage error, in the CLI's own words", async () => {
    const result = await runCli(["pickup", "--bogus"], { env, cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^baton: Unknown option '--bogus'/);
    expect(result.stdout).toBe("");
  });

  it("-- ends the options: a --help after it is an argument, not a request for help", async () => {
    const result = await runCli(["learnings", "--", "--help"], { env, cwd: ROOT });
    expect(result.stdout).not.toMatch(/^Usage:/);
  });

  it("baton --version prints the version the server names (package.json's and the build's)", async () => {
    for (const flag of ["--version", "-v"]) {
      const result = await runCli([flag], { env, cwd: ROOT });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${BUILT_VERSION}\n`);
    }
  });
});
