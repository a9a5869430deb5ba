import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "@/cli/src/config/load-config";
import { updateUserConfig } from "@/cli/src/config/user-config-file";

const root = mkdtempSync(path.join(tmpdir(), "baton-config-unit-"));
const saved = { ...process.env };
afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function setup(files: { user?: unknown; repo?: unknown; env?: Record<string, string> }) {
  const home = path.join(root, `home-${++n}`);
  const repo = path.join(root, `repo-${n}`);
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(path.join(repo, "pkg", "deep"), { recursive: true });
  if (files.user !== undefined) {
    mkdirSync(path.join(home, ".config", "baton"), { recursive: true });
    writeFileSync(path.join(home, ".config", "baton", "config.json"), typeof files.user === "string" ? files.user : JSON.stringify(files.user));
  }
  if (files.repo !== undefined) writeFileSync(path.join(repo, ".baton.json"), typeof files.repo === "string" ? files.repo : JSON.stringify(files.repo));
  for (const key of Object.keys(process.env)) if (key.startsWith("BATON_") || key.startsWith("XDG_") || key === "PAI_DIR") delete process.env[key];
  Object.assign(process.env, { HOME: home, ...files.env });
  return { home, repo };
}

describe("loadConfig", () => {
  it("takes each value from the environment, then the user's file, then .baton.json", () => {
    const { repo } = setup({
      user: { url: "http://user:1/", token: "user-token", timeoutMs: 3000 },
      repo: { project: "web", url: "http://repo:2", task: "task-1" },
      env: { BATON_TOKEN: "env-token" },
    });
    const config = loadConfig(path.join(repo, "pkg", "deep"));
    expect(config).toMatchObject({ url: "http://user:1", token: "env-token", timeoutMs: 3000, project: "web", task: "task-1", repoRoot: repo, warnings: [] });
  });

  it("never takes a token or a summariser from a repository", () => {
    const { repo } = setup({ repo: { project: "web", url: "http://repo:2", token: "stolen", summariser: "rm -rf ~" } });
    const config = loadConfig(repo);
    expect(config).toMatchObject({ url: "http://repo:2", token: null, summariser: null });
  });

  it("takes a caFile from the environment or the user's file (~ is home), never from a repository", () => {
    const fromUser = setup({ user: { caFile: "~/certs/team-ca.pem" }, repo: { caFile: "/repo/ca.pem" } });
    expect(loadConfig(fromUser.repo).caFile).toBe(path.join(fromUser.home, "certs", "team-ca.pem"));
    const fromEnv = setup({ user: { caFile: "/user/ca.pem" }, env: { BATON_CA_FILE: "/env/ca.pem" } });
    expect(loadConfig(fromEnv.repo).caFile).toBe("/env/ca.pem");
    const fromRepo = setup({ repo: { caFile: "/repo/ca.pem" } });
    expect(loadConfig(fromRepo.repo).caFile).toBeNull();
  });

  it("uses XDG_CONFIG_HOME when set", () => {
    const { repo } = setup({ env: { XDG_CONFIG_HOME: path.join(root, "xdg") } });
    mkdirSync(path.join(root, "xdg", "baton"), { recursive: true });
    writeFileSync(path.join(root, "xdg", "baton", "config.json"), JSON.stringify({ url: "http://xdg:3", token: "t", summariser: "cat" }));
    expect(loadConfig(repo)).toMatchObject({ url: "http://xdg:3", token: "t", summariser: "cat" });
  });

  it.each([
    { name: "a broken user file", user: "{ nope", warning: /not valid JSON/ },
    { name: "a list", user: [1], warning: /not a JSON object/ },
    { name: "a bad timeout", user: { timeoutMs: 5 }, warning: /timeoutMs .* between 100 and 120000/ },
    { name: "a URL without a scheme", user: { url: "baton.local:3000" }, warning: /must be an http/ },
  ])("$name: a warning, and defaults", ({ user, warning }) => {
    const { repo } = setup({ user });
    const config = loadConfig(repo);
    expect(config.timeoutMs).toBe(2000);
    expect(config.warnings.join("\n")).toMatch(warning);
  });

  it("reads past a byte order mark at the start of either file, as Windows editors write them (with CRLF)", () => {
    const { home, repo } = setup({ user: '\uFEFF{ "url": "http://user:1", "token": "t" }\r\n', repo: '\uFEFF{ "project": "web" }\r\n' });
    expect(loadConfig(repo)).toMatchObject({ url: "http://user:1", token: "t", project: "web", warnings: [] });
    const file = path.join(home, ".config", "baton", "config.json");
    updateUserConfig({ caFile: "/ca.pem" }, file);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ url: "http://user:1", token: "t", caFile: "/ca.pem" });
  });

  it("a .baton.json that is not JSON (a trailing comma) is named in a warning, with why", () => {
    const { repo } = setup({ repo: '{ "project": "web", }\n' });
    const config = loadConfig(repo);
    expect(config.project).toBeNull();
    expect(config.warnings.join("\n")).toContain(`${path.join(repo, ".baton.json")} is not valid JSON (`);
  });

  describe("the token in the user's file goes only to the server it was saved with", () => {
    const user = { url: "http://baton.local:3421", token: "file-token" };
    it.each<{ name: string; env: Record<string, string>; url: string; token: string | null; tokenFrom: string | null }>([
      { name: "the file's own url", env: {}, url: "http://baton.local:3421", token: "file-token", tokenFrom: "file" },
      { name: "BATON_URL naming the same server, written otherwise", env: { BATON_URL: "HTTP://Baton.Local:3421/" }, url: "http://baton.local:3421", token: "file-token", tokenFrom: "file" },
      { name: "BATON_URL naming another server", env: { BATON_URL: "http://127.0.0.1:34905" }, url: "http://127.0.0.1:34905", token: null, tokenFrom: null },
      { name: "BATON_URL naming another port of the same host", env: { BATON_URL: "http://baton.local:3422" }, url: "http://baton.local:3422", token: null, tokenFrom: null },
      { name: "BATON_TOKEN given, with BATON_URL naming another server", env: { BATON_URL: "http://127.0.0.1:34905", BATON_TOKEN: "env-token" }, url: "http://127.0.0.1:34905", token: "env-token", tokenFrom: "env" },
    ])("$name", ({ env, url, token, tokenFrom }) => {
      const { repo } = setup({ user, env });
      expect(loadConfig(repo)).toMatchObject({ url, token, tokenFrom });
    });

    it("another server named by BATON_URL: a warning says whose the token is and how to use that server", () => {
      const { repo } = setup({ user, env: { BATON_URL: "http://127.0.0.1:34905" } });
      expect(loadConfig(repo).warnings.join("\n")).toMatch(/token in .*config\.json is for http:\/\/baton\.local:3421; it is not sent to http:\/\/127\.0\.0\.1:34905 \(BATON_URL\)/);
    });
  });

  describe("the context mode", () => {
    it.each<{ name: string; files: Parameters<typeof setup>[0]; mode: string }>([
      { name: "nothing set", files: {}, mode: "full" },
      { name: "PAI_DIR set (PAI injects identity itself)", files: { env: { PAI_DIR: "/home/ana/.claude" } }, mode: "complement" },
      { name: "an empty PAI_DIR", files: { env: { PAI_DIR: "" } }, mode: "full" },
      { name: "mode in the user's file", files: { user: { mode: "complement" } }, mode: "complement" },
      { name: "mode in .baton.json", files: { repo: { mode: "complement" } }, mode: "complement" },
      { name: "BATON_MODE", files: { env: { BATON_MODE: "complement" } }, mode: "complement" },
      { name: "the user's file over PAI_DIR", files: { user: { mode: "full" }, env: { PAI_DIR: "/pai" } }, mode: "full" },
      { name: ".baton.json over PAI_DIR", files: { repo: { mode: "full" }, env: { PAI_DIR: "/pai" } }, mode: "full" },
      { name: "the user's file over .baton.json", files: { user: { mode: "full" }, repo: { mode: "complement" } }, mode: "full" },
      { name: "BATON_MODE over the user's file", files: { user: { mode: "complement" }, env: { BATON_MODE: "full" } }, mode: "full" },
    ])("$name → $mode", ({ files, mode }) => {
      const { repo } = setup(files);
      const config = loadConfig(repo);
      expect(config.mode).toBe(mode);
      expect(config.warnings).toEqual([]);
    });

    it("an unknown mode is a warning and falls through to the next source", () => {
      const { repo } = setup({ user: { mode: "partial" }, repo: { mode: "complement" } });
      const config = loadConfig(repo);
      expect(config.mode).toBe("complement");
      expect(config.warnings.join("\n")).toMatch(/mode in .*config\.json must be full or complement, not "partial"; ignored\./);
    });
  });

  it("outside a repository: no root, and a .baton.json above still counts", () => {
    const plain = path.join(root, "plain", "sub");
    mkdirSync(plain, { recursive: true });
    writeFileSync(path.join(root, "plain", ".baton.json"), JSON.stringify({ project: "notes" }));
    setup({});
    expect(loadConfig(plain)).toMatchObject({ repoRoot: null, project: "notes", url: null });
  });
});
