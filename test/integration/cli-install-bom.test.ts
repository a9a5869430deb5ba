import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/server";
import { homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";

// An agent's settings file saved by Notepad or PowerShell starts with a byte order mark, which
// JSON.parse rejects: `baton install` stopped with "is not valid JSON" on a file the user had not broken.

const tmp = tempDir("baton-cli-install-bom-");
afterAll(() => tmp.remove());

const BOM = "\uFEFF";
const cases = [
  { agent: "claude", file: (repo: string) => path.join(repo, ".claude/settings.json"), event: "SessionStart" },
  { agent: "gemini", file: (_repo: string, home: string) => path.join(home, ".gemini/settings.json"), event: "SessionStart" },
];

describe("baton install over a settings file with a byte order mark", () => {
  it.each(cases)("$agent: the user's settings kept, Baton's hooks added", async ({ agent, file, event }) => {
    const home = path.join(tmp.dir, `${agent}-home`);
    const repo = makeRepo(path.join(tmp.dir, `${agent}-repo`));
    const settings = file(repo, home);
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, BOM + JSON.stringify({ theme: "dark", env: { FOO: "1" } }, null, 2));
    const result = await runBaton(["install", agent], { cwd: repo, env: homeEnv(home, { BATON_URL: "http://baton.example.test:3000" }) });
    expect(result.code, result.stderr).toBe(0);
    const written = JSON.parse(readFileSync(settings, "utf8").replace(/^\uFEFF/, ""));
    expect(written).toMatchObject({ theme: "dark", env: { FOO: "1" } });
    expect(JSON.stringify(written.hooks[event])).toContain("hook session-start");
  });
});
