import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, ROOT } from "../support/server";
import { runProcess } from "../support/run-process";
import { testWorld } from "../support/world";
import { fixture, hookContext, homeEnv, makeRepo, PATIENT_HOOKS, writeUserConfig } from "../fixtures/cli/cli-env";
import { BUILT_VERSION, asOlderCli } from "../support/versions";

// The CLI a team member gets from their Baton server: GET /cli/baton.mjs into an empty folder, and
// install.sh into a fresh HOME, both run as child processes against the real server.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const tmp = tempDir("baton-cli-download-");
afterAll(() => tmp.remove());

const version = BUILT_VERSION;
const node = process.execPath;
/** Every module specifier a file imports (static or dynamic). */
const importsOf = (text: string) => [...text.matchAll(/(?:^|[\s;])(?:import|export)\s*(?:[^"'();]*?\sfrom\s*)?\(?\s*["']([^"']+)["']/gm)].map((m) => m[1]!);

let bundle: string;
let repo: string;
const sessionStartInput = (cwd: string) => JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd });

beforeAll(async () => {
  const res = await fetch(`${world.server.url}/cli/baton.mjs`);
  expect(res.status).toBe(200);
  bundle = await res.text();
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git", commits: ["Add the token list"] });
  const handoff = await world.as("ana")("POST", "/api/projects/web/handoffs", { markdown: "Did: the download marker handoff.", branch: "main" });
  expect(handoff.status).toBe(201);
});

describe("GET /cli/baton.mjs", () => {
  it("is public, revalidated every time (an old copy kept after an upgrade is an old CLI), one self-contained file of the server's version", async () => {
    const res = await fetch(`${world.server.url}/cli/baton.mjs`, { headers: { authorization: "Bearer not-a-token" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toBe(bundle);
    expect(bundle.startsWith(`#!/usr/bin/env node\n// Baton CLI ${version}`)).toBe(true);
    const imports = importsOf(bundle);
    expect(imports.length).toBeGreaterThan(5);
    expect(imports.filter((specifier) => !specifier.startsWith("node:"))).toEqual([]);

    const etag = res.headers.get("etag")!;
    const again = await fetch(`${world.server.url}/cli/baton.mjs`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("runs from an empty folder with nothing installed: --version, a command and the hook", async () => {
    const dir = path.join(tmp.dir, "empty");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "baton.mjs"), bundle);
    expect(readdirSync(dir)).toEqual(["baton.mjs"]);
    const env = homeEnv(path.join(tmp.dir, "home-empty"), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });

    const v = await runProcess(node, ["baton.mjs", "--version"], { cwd: dir, env });
    expect(v.stdout).toBe(`${version}\n`);
    const projects = await runProcess(node, [path.join(dir, "baton.mjs"), "learnings", "--project", "web"], { cwd: dir, env });
    expect(projects.stderr).toBe("");
    expect(JSON.parse(projects.stdout)).toMatchObject({ ok: true });
    const hook = await runProcess(node, [path.join(dir, "baton.mjs"), "hook", "session-start"], { cwd: repo, env, input: sessionStartInput(repo) });
    expect(hook.code).toBe(0);
    expect(hookContext(hook.stdout)).toContain("download marker handoff");
    // The operator commands need the server's database: the handed-out CLI says where to run them.
    const admin = await runProcess(node, [path.join(dir, "baton.mjs"), "admin", "create-user"], { cwd: dir, env });
    expect(admin.code).toBe(2);
    expect(admin.stderr).toMatch(/server's own checkout/);
  });
});

describe("GET /install.sh", () => {
  it("names the address the request came to, and refuses one it could not quote", async () => {
    const own = await fetch(`${world.server.url}/install.sh`);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("text/x-shellscript; charset=utf-8");
    expect(own.headers.get("vary")).toMatch(/X-Forwarded-Host/);
    expect(await own.text()).toContain(`\nurl='${world.server.url}'\n`);
    const proxied = await fetch(`${world.server.url}/install.sh`, { headers: { "x-forwarded-host": "baton.example.test", "x-forwarded-proto": "https" } });
    expect(await proxied.text()).toContain(`\nurl='https://baton.example.test'\n`);
    const hostile = await fetch(`${world.server.url}/install.sh`, { headers: { "x-forwarded-host": "x';rm -rf ~;'" } });
    expect(hostile.status).toBe(400);
    expect((await hostile.json()).error.code).toBe("bad_request");
  });

  it("installs ~/.local/bin/baton from the server into a fresh HOME, keeps the token, and says how to fix PATH", async () => {
    const home = path.join(tmp.dir, "home-install");
    writeUserConfig(home, { token: world.tokens.ana, timeoutMs: 3000 });
    const script = await (await fetch(`${world.server.url}/install.sh`)).text();
    const basePath = process.env.PATH!;
    const install = await runProcess("sh", [], { env: homeEnv(home, { PATH: basePath }), input: script, cwd: home });
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);
    const bin = path.join(home, ".local/bin/baton");
    expect(install.stdout).toContain(`Installed the Baton CLI ${version} as ${bin}`);
    expect(install.stdout).toContain(`Server: ${world.server.url}, recorded in ${path.join(home, ".config/baton/config.json")}.`);
    expect(install.stdout).toContain(`${path.join(home, ".local/bin")} is not on your PATH`);
    expect(install.stdout).toContain(`echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.profile`);

    const configFile = path.join(home, ".config/baton/config.json");
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual({ token: world.tokens.ana, timeoutMs: 3000, url: world.server.url });
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(lstatSync(bin).isSymbolicLink()).toBe(true);
    expect(readFileSync(bin, "utf8")).toBe(bundle);

    // Run as a program (its shebang), configured by the file alone: no BATON_* in the environment.
    const withPath = homeEnv(home, { PATH: `${path.dirname(bin)}${path.delimiter}${basePath}` });
    expect((await runProcess(bin, ["--version"], { env: withPath })).stdout).toBe(`${version}\n`);
    const hook = await runProcess("baton", ["hook", "session-start"], { cwd: repo, env: withPath, input: sessionStartInput(repo) });
    expect(hookContext(hook.stdout)).toContain("download marker handoff");

    const again = await runProcess("sh", [], { env: withPath, input: script, cwd: home });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Server: ${world.server.url} (already in ${configFile}).`);
    expect(again.stdout).toContain("Run: baton --help");
    expect(again.stdout).not.toContain("not on your PATH");
  });

  it("run again against another server: the old server's token and CA are not kept for the new one", async () => {
    const home = path.join(tmp.dir, "home-other-server");
    writeUserConfig(home, { url: "https://old.example.test", token: world.tokens.ana, caFile: "/etc/old-ca.pem", timeoutMs: 3000 });
    const script = await (await fetch(`${world.server.url}/install.sh`)).text();
    const install = await runProcess("sh", [], { env: homeEnv(home, { PATH: process.env.PATH! }), input: script, cwd: home });
    expect(install.code, install.stderr).toBe(0);
    const configFile = path.join(home, ".config/baton/config.json");
    expect(install.stdout).toContain(`Removed token and caFile of https://old.example.test from ${configFile}: they were for that server.`);
    expect(install.stdout).toContain("Next: run `baton login` to sign in");
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual({ timeoutMs: 3000, url: world.server.url });
  });

  it("a config file Notepad saved (a byte order mark, CRLF) is read as JSON, its url found there", async () => {
    const home = path.join(tmp.dir, "home-bom");
    writeUserConfig(home, {});
    const configFile = path.join(home, ".config/baton/config.json");
    writeFileSync(configFile, `\uFEFF${JSON.stringify({ url: world.server.url, token: world.tokens.ana, timeoutMs: 3000 })}\r\n`);
    const script = await (await fetch(`${world.server.url}/install.sh`)).text();
    const install = await runProcess("sh", [], { env: homeEnv(home, { PATH: process.env.PATH! }), input: script, cwd: home });
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain(`Server: ${world.server.url} (already in ${configFile}).`);
  });

  it("a relative XDG_DATA_HOME or XDG_CONFIG_HOME is ignored (the XDG spec): nothing lands in the folder it runs in, the link is absolute", async () => {
    const home = path.join(tmp.dir, "home-relative-xdg");
    const cwd = path.join(tmp.dir, "relative-xdg-cwd");
    mkdirSync(cwd, { recursive: true });
    const script = await (await fetch(`${world.server.url}/install.sh`)).text();
    const env = homeEnv(home, { PATH: process.env.PATH!, XDG_DATA_HOME: "data", XDG_CONFIG_HOME: "config" });
    const install = await runProcess("sh", [], { env, input: script, cwd });
    expect(install.code, install.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    const bin = path.join(home, ".local/bin/baton");
    expect(readlinkSync(bin)).toBe(path.join(home, ".local/share/baton/baton.mjs"));
    expect(readFileSync(bin, "utf8")).toBe(bundle);
    expect(JSON.parse(readFileSync(path.join(home, ".config/baton/config.json"), "utf8"))).toEqual({ url: world.server.url });
  });

  it("with no token yet, it says to sign in with `baton login` next", async () => {
    const home = path.join(tmp.dir, "home-no-token");
    const script = await (await fetch(`${world.server.url}/install.sh`)).text();
    const install = await runProcess("sh", [], { env: homeEnv(home, { PATH: process.env.PATH! }), input: script, cwd: home });
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain("Next: run `baton login` to sign in");
  });

  it("leaves a config file that is not a JSON object alone, and says what to set", async () => {
    const home = path.join(tmp.dir, "home-bad-config");
    mkdirSync(path.join(home, ".config/baton"), { recursive: true });
    writeFileSync(path.join(home, ".config/baton/config.json"), "[1, 2]");
    const script = await (await fetch(`${world.server.url}/install.sh`)).text();
    const install = await runProcess("sh", [], { env: homeEnv(home, { PATH: process.env.PATH! }), input: script, cwd: home });
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(`is not a JSON object, so it was left as it is: set "url": "${world.server.url}"`);
    expect(readFileSync(path.join(home, ".config/baton/config.json"), "utf8")).toBe("[1, 2]");
    expect(existsSync(path.join(home, ".local/bin/baton"))).toBe(true);
  });
});

describe("a CLI of another version than its server", () => {
  const older = () => {
    const text = asOlderCli(bundle);
    expect(text).not.toBe(bundle);
    const file = path.join(tmp.dir, "old", "baton.mjs");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };

  it("every API answer names the server's version", async () => {
    for (const res of [await fetch(`${world.server.url}/api/health`), await fetch(`${world.server.url}/api/projects`)]) {
      expect(res.headers.get("baton-version")).toBe(version);
    }
  });

  it("the version names the build: package.json's and a hash of the CLI served, so CLI code changed since is another version", async () => {
    const { version: release } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    const build = /^(.+)\+([0-9a-f]{10})$/.exec(version);
    expect(build?.[1], version).toBe(release);
    // The hash is of the file with its own name left out (cli/build.mjs).
    const hashed = createHash("sha256").update(bundle.replaceAll(build![2]!, "baton-build-0000000000")).digest("hex");
    expect(hashed.slice(0, 10)).toBe(build![2]);
    expect((await fetch(`${world.server.url}/api/health`).then((r) => r.json())).version).toBe(version);
  });

  it("says so on stderr once a day, with the command that updates it; the same version says nothing", async () => {
    const env = homeEnv(path.join(tmp.dir, "home-old"), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    const first = await runProcess(node, [older(), "learnings"], { env, cwd: tmp.dir });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(
      `baton: this CLI is Baton 0.0.1-old, the server at ${world.server.url} runs ${version}; update: curl -fsSL ${world.server.url}/install.sh | sh\n`,
    );
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true });
    const second = await runProcess(node, [older(), "learnings"], { env, cwd: tmp.dir });
    expect(second.stderr).toBe("");
    const sameEnv = homeEnv(path.join(tmp.dir, "home-same"), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    const same = await runProcess(node, [path.join(ROOT, "cli/dist/baton.mjs"), "learnings"], { env: sameEnv, cwd: tmp.dir });
    expect(same.code).toBe(0);
    expect(same.stderr).toBe("");
  });

  it("baton doctor compares the versions every time it runs, not once a day", async () => {
    const env = homeEnv(path.join(tmp.dir, "home-old-doctor"), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    for (let run = 0; run < 2; run++) {
      const doctor = await runProcess(node, [older(), "doctor"], { env, cwd: repo });
      expect(JSON.parse(doctor.stdout).server, `run ${run + 1}`).toMatchObject({ version, cliVersion: "0.0.1-old", answering: true });
    }
  });

  it("in a hook, writes the notice to hook.log once a day and leaves the hook's output alone; the person's next command still says it", async () => {
    const home = path.join(tmp.dir, "home-old-hook");
    const env = homeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, ...PATIENT_HOOKS });
    const notice = `this CLI is Baton 0.0.1-old, the server at ${world.server.url} runs ${version}`;
    for (let run = 0; run < 2; run++) {
      const hook = await runProcess(node, [older(), "hook", "session-start"], { env, cwd: repo, input: sessionStartInput(repo) });
      expect(hook.code).toBe(0);
      expect(hook.stderr).toBe("");
      expect(hookContext(hook.stdout)).toContain("download marker handoff");
    }
    expect(readFileSync(path.join(home, ".cache/baton/hook.log"), "utf8").split(notice)).toHaveLength(2);
    // hook.log told nobody: a command at the terminal says it (once), and hooks after it stay quiet in the log.
    const told = await runProcess(node, [older(), "learnings"], { env, cwd: tmp.dir });
    expect(told.stderr).toContain(`baton: ${notice}; update: curl -fsSL`);
    expect((await runProcess(node, [older(), "learnings"], { env, cwd: tmp.dir })).stderr).toBe("");
    await runProcess(node, [older(), "hook", "session-start"], { env, cwd: repo, input: sessionStartInput(repo) });
    expect(readFileSync(path.join(home, ".cache/baton/hook.log"), "utf8").split(notice)).toHaveLength(2);
  });
});
