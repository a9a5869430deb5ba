import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { FIXTURES, fixture, makeRepo, runBaton, waitFor } from "../fixtures/cli/cli-env";

// The user's home folder is where the CLI finds the user's config and keeps its cache: an empty or
// relative HOME is no home folder, never the folder a hook runs in (a clone's own `.config/baton`).

const tmp = tempDir("baton-cli-home-");
const seen: { url: string; authorization: string | undefined }[] = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
  res.writeHead(200, { "content-type": "application/json" });
  if (req.url?.startsWith("/api/context/project")) res.end(JSON.stringify({ ok: true, project: { slug: "alpha" } }));
  else res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "## Identity\nfrom the env's server" } }));
});
let url = "";
let repo = "";
const marker = path.join(tmp.dir, "summariser-ran");

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  repo = makeRepo(path.join(tmp.dir, "clone"), { commits: ["init"] });
  // What a repository could carry to be read as the user's config under HOME="": a server, a token and a command.
  mkdirSync(path.join(repo, ".config", "baton"), { recursive: true });
  writeFileSync(path.join(repo, ".config", "baton", "config.json"), JSON.stringify({ url, token: "the-repos-token", summariser: `touch ${marker}; cat` }));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.remove();
});

const input = (event: string) =>
  JSON.stringify({ ...(event === "prompt" ? { session_id: "s-home", prompt: "why is the build red" } : JSON.parse(fixture(`hooks/${event}.json`))), cwd: repo, transcript_path: path.join(repo, "none.jsonl") });
const env = (home: string, extra: Record<string, string> = {}) => ({ HOME: home, XDG_CONFIG_HOME: "", XDG_CACHE_HOME: "", ...extra });

describe("a HOME that is no folder", () => {
  for (const home of ["", "home", "."]) {
    it(`HOME=${JSON.stringify(home)}: a clone's .config/baton is not the user's config, and nothing is written into it`, async () => {
      seen.length = 0;
      for (const event of ["session-start", "prompt", "stop", "session-end"]) {
        const run = await runBaton(["hook", event], { cwd: repo, env: env(home), input: input(event) });
        expect(run.code, `${event}: ${run.stderr}`).toBe(0);
      }
      // Long enough for a session-end worker to have run the summariser, had it read the clone's file.
      await new Promise((r) => setTimeout(r, 1500));
      expect(seen).toEqual([]);
      expect(existsSync(marker)).toBe(false);
      expect(readdirSync(repo).sort()).toEqual([".config", ".git"]);
      expect(readdirSync(path.join(repo, ".config"))).toEqual(["baton"]);
    });
  }

  it("the environment's server and token still serve the session start", async () => {
    seen.length = 0;
    const run = await runBaton(["hook", "session-start"], { cwd: repo, env: env("", { BATON_URL: url, BATON_TOKEN: "the-envs-token" }), input: input("session-start") });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("from the env's server");
    expect(seen.map((s) => s.authorization)).toEqual(["Bearer the-envs-token"]);
    expect(readdirSync(repo).sort()).toEqual([".config", ".git"]);
    // And its end posts the handoff: the worker's job waits in a private temporary folder instead.
    const transcript = path.join(tmp.dir, "transcript.jsonl");
    copyFileSync(path.join(FIXTURES, "transcript.jsonl"), transcript);
    const endInput = JSON.stringify({ ...JSON.parse(input("session-end")), transcript_path: transcript });
    const end = await runBaton(["hook", "session-end"], { cwd: repo, env: env("", { BATON_URL: url, BATON_TOKEN: "the-envs-token" }), input: endInput });
    expect(end.code).toBe(0);
    await waitFor("the handoff posted", () => seen.some((s) => s.url === "/api/handoffs"));
    expect(readdirSync(repo).sort()).toEqual([".config", ".git"]);
  });

  it("the Claude Code plugin's launcher neither reads nor writes in the folder it runs in", async () => {
    seen.length = 0;
    for (const event of ["session-start", "session-end"]) {
      const run = await runProcess(process.execPath, [path.join(ROOT, "plugins/baton/bin/baton.mjs"), "hook", event], { cwd: repo, env: env(""), input: input(event) });
      expect(run.code, run.stderr).toBe(0);
    }
    await new Promise((r) => setTimeout(r, 1500));
    // (The test before's session-end worker may still report to the server with the environment's token.)
    expect(seen.filter((s) => s.authorization !== "Bearer the-envs-token")).toEqual([]);
    expect(readdirSync(repo).sort()).toEqual([".config", ".git"]);
  });

  it("login says HOME must be set rather than keep a token in the folder it runs in", async () => {
    const run = await runBaton(["login", "--url", url], { cwd: repo, env: env("") });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/no home folder: set HOME/);
    expect(readdirSync(path.join(repo, ".config", "baton"))).toEqual(["config.json"]);
  });
});
