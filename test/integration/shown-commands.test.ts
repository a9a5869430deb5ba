import path from "node:path";
import { describe, expect, it } from "vitest";
import { homeEnv } from "../fixtures/cli/cli-env";
import { runCli } from "../support/cli";
import { ROOT } from "../support/server";
import { argumentsOf, dashboardCommands, readmeCommands } from "../support/shown-commands";

// Every command the dashboard and the README show exists: run with --help against the built CLI, it
// exits 0. --help refuses a subcommand or an option the command does not have (cli/src/usage.ts
// helpProblem), so `baton handoff new --spec …` (the old hint) fails here.

const env = homeEnv(path.join(ROOT, "test-results", "shown-commands-home"));
const shown = [...dashboardCommands(), ...readmeCommands()];
const invocations = [...new Map(shown.flatMap((c) => argumentsOf(c.text).map((args) => [args.join(" "), { args, shown: c }] as const))).values()];

describe("commands shown in the dashboard and the README", () => {
  it("are found where they are known to be", () => {
    const texts = shown.map((c) => c.text);
    expect(texts).toContain("baton session new --spec … --file …");
    expect(texts).toContain("baton pickup");
    expect(texts).toContain("baton install claude --dry-run");
    expect(shown.some((c) => c.where === "README.md" && c.text.startsWith("baton admin create-token"))).toBe(true);
    expect(invocations.length).toBeGreaterThan(40);
  });

  it.each(invocations.map((i) => [i.args.join(" "), i] as const))("baton %s --help", async (_name, { args, shown: c }) => {
    const result = await runCli([...args, "--help"], { env, cwd: ROOT });
    expect({ shown: c.text, where: c.where, code: result.code, stderr: result.stderr }).toEqual({ shown: c.text, where: c.where, code: 0, stderr: "" });
  });

  it("--help refuses what a command does not have", async () => {
    const sub = await runCli(["handoff", "new", "--spec", "x", "--help"], { env, cwd: ROOT });
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('baton handoff has no "new": write, show.');
    const option = await runCli(["handoff", "write", "--spec", "x", "--help"], { env, cwd: ROOT });
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("baton handoff has no option --spec.");
  });
});
