import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "../support/run-process";
import { ROOT } from "../support/server";
import { testWorld } from "../support/world";
import { fixture, hookContext, homeEnv, makeRepo, PATIENT_HOOKS, runBaton, writeUserConfig } from "../fixtures/cli/cli-env";

// A cloned repository's .baton.json may name a server URL, but never gets the user's token: not from
// the config file, not from BATON_TOKEN. Nor does a server BATON_URL (or the plugin's url option) names
// get the token the config file keeps for another. The real CLI, as a child process, against a server
// that records every Authorization header it is sent.

const world = testWorld({ tempPrefix: "baton-cli-token-destination-", users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });

const authorizations: (string | undefined)[] = [];
let chosen: { url: string; close: () => Promise<void> };
let repo: string;

beforeAll(async () => {
  const server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true,"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"from the repository\'s server"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  chosen = { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  repo = makeRepo(path.join(world.dir, "src", "cloned"), { commits: ["Start"] });
  writeFileSync(path.join(repo, ".baton.json"), JSON.stringify({ url: chosen.url, project: "web" }));
});
afterAll(async () => chosen?.close());

let homes = 0;
const freshHome = (config: Record<string, unknown>) => {
  const home = path.join(world.dir, `home-${++homes}`);
  writeUserConfig(home, config);
  return home;
};

describe("a repository's .baton.json naming the server", () => {
  it.each([
    { from: "the user's config file", env: () => homeEnv(freshHome({ token: world.tokens.ana })) },
    { from: "BATON_TOKEN", env: () => homeEnv(freshHome({}), { BATON_TOKEN: world.tokens.ana! }) },
  ])("with the token in $from: the hook sends it no token, and commands say why", async ({ env }) => {
    authorizations.length = 0;
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo });
    const hook = await runBaton(["hook", "session-start"], { cwd: repo, env: { ...env(), ...PATIENT_HOOKS }, input });
    expect(hook.code).toBe(0);
    expect(hookContext(hook.stdout)).toBe(`Baton: context unavailable (no token for ${chosen.url}: run \`baton login\`, or set BATON_TOKEN).`);
    expect(authorizations.filter(Boolean)).toEqual([]);

    const whoami = await runBaton(["whoami"], { cwd: repo, env: env() });
    expect(whoami.code).toBe(2);
    expect(whoami.stderr).toContain(`names the server ${chosen.url}; your token is not sent to a server a repository chose`);
    expect(authorizations.filter(Boolean)).toEqual([]);
  });

  it("the user's own URL wins, and gets the token", async () => {
    const env = homeEnv(freshHome({ url: world.server.url, token: world.tokens.ana }));
    const whoami = await runBaton(["whoami"], { cwd: repo, env });
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stderr).toBe("");
  });
});

describe("BATON_URL naming another server than the one the config file's token was saved with", () => {
  const saved = () => homeEnv(freshHome({ url: world.server.url, token: world.tokens.ana }), { BATON_URL: chosen.url });
  const plain = () => path.join(world.dir, "plain");

  it("commands send it no token, and say what to do, as with no token at all", async () => {
    authorizations.length = 0;
    mkdirSync(plain(), { recursive: true });
    const whoami = await runBaton(["whoami"], { cwd: plain(), env: saved() });
    expect(authorizations).toEqual([]);
    expect(whoami.code).toBe(2);
    expect(whoami.stderr).toContain(`no token for ${chosen.url}: run \`baton login\``);
    expect(whoami.stderr).toContain(`is for ${world.server.url}; it is not sent to ${chosen.url} (BATON_URL)`);
  });

  it("the hooks send it no token either", async () => {
    authorizations.length = 0;
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: plain() });
    const hook = await runBaton(["hook", "session-start"], { cwd: plain(), env: { ...saved(), ...PATIENT_HOOKS }, input });
    expect(hookContext(hook.stdout)).toBe(`Baton: context unavailable (no token for ${chosen.url}: run \`baton login\`, or set BATON_TOKEN).`);
    expect(authorizations).toEqual([]);
  });

  it("the plugin's url option is BATON_URL: the same", async () => {
    authorizations.length = 0;
    const data = path.join(world.dir, "plugin-data");
    mkdirSync(data, { recursive: true });
    copyFileSync(path.join(ROOT, "cli/dist/baton.mjs"), path.join(data, "baton.mjs"));
    const env = homeEnv(freshHome({ url: world.server.url, token: world.tokens.ana }), { CLAUDE_PLUGIN_DATA: data, CLAUDE_PLUGIN_OPTION_URL: chosen.url });
    const whoami = await runProcess(process.execPath, [path.join(ROOT, "plugins/baton/bin/baton.mjs"), "whoami"], { cwd: plain(), env });
    expect(authorizations).toEqual([]);
    expect(whoami.code).toBe(2);
    expect(whoami.stderr).toContain(`no token for ${chosen.url}: run \`baton login\``);
  });

  it("the same server written otherwise (a trailing slash, the host's case) gets it; BATON_TOKEN given is sent as given", async () => {
    authorizations.length = 0;
    const same = homeEnv(freshHome({ url: `${chosen.url}/`, token: "baton_saved" }), { BATON_URL: chosen.url.replace("http://", "HTTP://") });
    expect((await runBaton(["whoami"], { cwd: plain(), env: same })).code).not.toBe(2);
    const given = await runBaton(["whoami"], { cwd: plain(), env: { ...saved(), BATON_TOKEN: "baton_given" } });
    expect(given.code).not.toBe(2);
    expect(authorizations).toEqual(["Bearer baton_saved", "Bearer baton_given"]);
  });
});
