import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../support/world";
import { fixture, hookContext, homeEnv, makeRepo, PATIENT_HOOKS, runBaton, waitFor, writeUserConfig } from "../fixtures/cli/cli-env";

// The real CLI, as a child process, given an address where something other than Baton answers: an SSO
// page or captive portal (200 with HTML for everything), a proxy's HTML 500, a redirect to the real
// server (http → https, a moved host), and Baton's own page path. Nothing crashes, the token is kept,
// and what is not Baton's is never quoted to the agent.

const world = testWorld({ tempPrefix: "baton-cli-wrong-server-", users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });

type Odd = { url: string; seen: { method: string; url: string; authorization: string | undefined }[]; close: () => Promise<void> };

/** A small server answering every request with `answer`, recording what came. */
async function oddServer(answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<Odd> {
  const seen: Odd["seen"] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => answer(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const SSO_PAGE = "<!doctype html><html><body><h1>Sign in with your company account</h1></body></html>";
const ERROR_PAGE = "<h1>Internal Server Error</h1>\n at foo (/x.js:1)";
let sso: Odd;
let broken: Odd;
let moved: Odd;
let movedPermanently: Odd;
let repo: string;
const gates: Odd[] = [];

beforeAll(async () => {
  sso = await oddServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(SSO_PAGE));
  broken = await oddServer((_req, res) => res.writeHead(500, { "content-type": "text/html" }).end(ERROR_PAGE));
  moved = await oddServer((req, res) => res.writeHead(308, { location: `${world.server.url}${req.url}` }).end());
  movedPermanently = await oddServer((req, res) => res.writeHead(301, { location: `${world.server.url}${req.url}` }).end());
  repo = makeRepo(path.join(world.dir, "src", "web"), { remote: "git@github.com:acme/web.git", commits: ["Start"] });
  writeFileSync(path.join(repo, ".baton.json"), JSON.stringify({ project: "web" }));
});
afterAll(async () => {
  await Promise.all([sso, broken, moved, movedPermanently, ...gates].map((s) => s?.close()));
});

let homes = 0;
const newHome = (config: Record<string, unknown>) => {
  const home = path.join(world.dir, `home-${++homes}`);
  writeUserConfig(home, config);
  return { home, env: homeEnv(home, { DISPLAY: "", WAYLAND_DISPLAY: "" }) };
};
const configOf = (home: string) => JSON.parse(readFileSync(path.join(home, ".config", "baton", "config.json"), "utf8")) as Record<string, unknown>;
const logOf = (home: string) => {
  const file = path.join(home, ".cache", "baton", "hook.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};

async function sessionStart(env: Record<string, string>) {
  const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo });
  const result = await runBaton(["hook", "session-start"], { cwd: repo, env: { ...env, ...PATIENT_HOOKS }, input });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe("");
  return hookContext(result.stdout);
}

describe("baton login --url with an address where Baton does not answer", () => {
  it.each([
    { name: "Baton's own /settings page path (it redirects to the sign-in page)", url: () => `${world.server.url}/settings` },
    { name: "an SSO page answering 200 with HTML", url: () => sso.url },
  ])("$name: says so (exit 5), and keeps the working token and URL", async ({ url }) => {
    const { home, env } = newHome({ url: world.server.url, token: world.tokens.ana });
    const result = await runBaton(["login", "--url", url(), "--no-browser"], { cwd: world.dir, env });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(`${url()} did not answer as a Baton server`);
    expect(result.stderr).not.toMatch(/undefined|Cannot read properties/);
    expect(configOf(home)).toEqual({ url: world.server.url, token: world.tokens.ana });
  });
});

describe("baton doctor with an address where Baton does not answer", () => {
  it.each([
    { name: "a path under the server", url: () => `${world.server.url}/foo` },
    { name: "an SSO page", url: () => sso.url },
  ])("$name: a server line that says it is not a Baton server (exit 5)", async ({ url }) => {
    const { env } = newHome({});
    const result = await runBaton(["doctor"], { cwd: repo, env: { ...env, BATON_URL: url(), BATON_TOKEN: world.tokens.ana! } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(5);
    const report = JSON.parse(result.stdout) as { server: { reachable: boolean; problem: string } };
    expect(report.server.reachable).toBe(false);
    expect(report.server.problem).toContain(`${url()} did not answer as a Baton server`);
  });
});

describe("a gateway in front of a Baton that is down", () => {
  it.each([502, 503, 504])("its %s page: commands say the server is not reachable (exit 5), not that Baton failed", async (status) => {
    const gate = await oddServer((_req, res) => res.writeHead(status, { "content-type": "text/html" }).end(`<h1>${status} Bad Gateway</h1>`));
    gates.push(gate);
    const { env } = newHome({});
    const whoami = await runBaton(["whoami"], { cwd: world.dir, env: { ...env, BATON_URL: gate.url, BATON_TOKEN: world.tokens.ana! } });
    expect(whoami.code, whoami.stderr).toBe(5);
    expect(whoami.stderr).toBe(`baton: the server is not reachable at ${gate.url} (a gateway answered ${status} for it).\n`);
  });
});

describe("a server that redirects (http → https, a moved host)", () => {
  it.each([
    { status: 308, odd: () => moved },
    { status: 301, odd: () => movedPermanently },
  ])("$status: commands say where Baton is now (exit 5); the token never follows the redirect", async ({ odd }) => {
    const { env } = newHome({});
    const whoami = await runBaton(["whoami"], { cwd: world.dir, env: { ...env, BATON_URL: odd().url, BATON_TOKEN: world.tokens.ana! } });
    expect(whoami.code).toBe(5);
    expect(whoami.stderr).toBe(`baton: the server at ${odd().url} redirects to ${world.server.url}: use ${world.server.url} (baton login --url ${world.server.url}).\n`);

    const { home, env: loginEnv } = newHome({});
    const login = await runBaton(["login", "--url", odd().url, "--no-browser"], { cwd: world.dir, env: loginEnv });
    expect(login.code).toBe(5);
    expect(login.stderr).toContain(`redirects to ${world.server.url}: use ${world.server.url}`);
    expect(configOf(home)).toEqual({});
  });

  it("the session-start hook: one line of context, the reason in hook.log", async () => {
    const { home, env } = newHome({ url: moved.url, token: world.tokens.ana });
    expect(await sessionStart(env)).toBe(`Baton: context unavailable (${moved.url} redirects elsewhere: see hook.log).`);
    expect(logOf(home)).toContain(`the server at ${moved.url} redirects to ${world.server.url}`);
  });
});

describe("the hooks with an answer that is not Baton's", () => {
  it("a 500 page: the agent reads the status alone, hook.log keeps the start of the page", async () => {
    const { home, env } = newHome({ url: broken.url, token: world.tokens.ana });
    const context = await sessionStart(env);
    expect(context).toBe(`Baton: context unavailable (${broken.url} answered 500).`);
    expect(logOf(home)).toContain("<h1>Internal Server Error</h1>");
  });

  it("an SSO page: the session-end worker spools what it could not send, then sends it once Baton answers there", async () => {
    // A sign-in gate in front of Baton: its page at first, then Baton behind it at the same address
    // (what was spooled for one server is sent to that server only: cli/src/hooks/spool.ts).
    let open = false;
    const gate = await oddServer((req, res, body) => {
      if (!open) return void res.writeHead(200, { "content-type": "text/html" }).end(SSO_PAGE);
      void (async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => typeof v === "string" && k !== "host" && k !== "connection")) as Record<string, string>;
        const upstream = await fetch(world.server.url + req.url, { method: req.method, headers, body: body.length ? new Uint8Array(body) : undefined });
        res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(Buffer.from(await upstream.arrayBuffer()));
      })();
    });
    gates.push(gate);
    const { home, env } = newHome({ url: gate.url, token: world.tokens.ana });
    const transcriptPath = path.join(world.dir, "transcript.jsonl");
    writeFileSync(transcriptPath, fixture("transcript.jsonl").replaceAll("/home/ana/src/web", repo));
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-end.json")), cwd: repo, transcript_path: transcriptPath, session_id: "sso-session" });
    const end = await runBaton(["hook", "session-end"], { cwd: repo, env, input });
    expect(end.code).toBe(0);
    await waitFor("the worker", () => /session-end worker \(SessionEnd\): sent 0, spooled [1-9]/.test(logOf(home)));
    const log = logOf(home);
    expect(log).not.toMatch(/Cannot read properties/);
    expect(log).toContain(`${gate.url} did not answer as a Baton server`);
    const spool = path.join(home, ".cache", "baton", "spool");
    const spooled = readdirSync(spool).length;
    expect(spooled).toBeGreaterThan(0);

    // The spool is not emptied into the SSO page: a session start there leaves it as it is.
    await sessionStart(env);
    expect(readdirSync(spool)).toHaveLength(spooled);
    open = true;
    expect(await sessionStart(env)).toContain("web");
    expect(readdirSync(spool)).toHaveLength(0);
    const handoffs = (await world.as("ana")("GET", "/api/projects/web/handoffs?limit=100")).json.items as { sessionId: string | null }[];
    expect(handoffs.map((h) => h.sessionId)).toContain("sso-session");
  });
});
