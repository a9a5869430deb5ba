import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sideClient } from "../support/side-db";
import { beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/server";
import { testWorld } from "../support/world";
import { homeEnv, makeRepo, runBaton, waitFor } from "../fixtures/cli/cli-env";
import { SECRET_CORPUS } from "../fixtures/secrets/secret-corpus";
import { MAX_PROPOSALS_PER_SESSION } from "@/lib/rules";

// Secrets never reach the server: a transcript with a real-shaped (fake) credential in every place a
// transcript carries text goes through the real CLI hook to a real server (and to the spool), and no
// table of the database, nor any spool file, holds one of them afterwards.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {}, tempPrefix: "baton-redact-" });
let repo: string;
let transcriptPath: string;

const all = SECRET_CORPUS.map((s) => s.text).join("\n");
const oneLine = SECRET_CORPUS.filter((s) => !s.text.includes("\n"));
const line = (type: "user" | "assistant", content: unknown, i: number) =>
  JSON.stringify({ type, sessionId: "redact-session", cwd: "REPO", gitBranch: "main", timestamp: `2026-01-12T09:00:${String(i).padStart(2, "0")}.000Z`, message: { role: type, content } });

/** Every place Claude Code's transcript carries text: prompts, assistant text, tool inputs, tool results. */
function transcript(): string {
  const lines = [
    line("user", `Deploy the app. Here is everything you need:\n${all}`, 0),
    // One "remember …" statement per credential: each would become a proposal.
    ...oneLine.map((s, i) => line("user", `Remember that ${s.text}`, i + 1)),
    line("assistant", [{ type: "text", text: `I will use these:\n${all}` }, { type: "tool_use", id: "t1", name: "Bash", input: { command: `${SECRET_CORPUS[2]!.secret} ${oneLine.map((s) => s.text).join(" && ")}` } }], 40),
    line("user", [{ type: "tool_result", tool_use_id: "t1", content: `printed:\n${all}` }], 41),
    line("assistant", [{ type: "tool_use", id: "t2", name: "Write", input: { file_path: "REPO/.env", content: all } }, { type: "tool_use", id: "t3", name: "Edit", input: { file_path: "REPO/config.ts", old_string: "x", new_string: all } }], 42),
    line("user", [{ type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: all }] }], 43),
    line("assistant", [{ type: "text", text: `Done. Still failing: ${all}` }], 44),
  ];
  return lines.join("\n").replaceAll("REPO", repo) + "\n";
}

const stopInput = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: "redact-session", transcript_path: transcriptPath, cwd: repo, hook_event_name: "Stop", last_assistant_message: `Finished.\n${all}\nNext step: rotate ${SECRET_CORPUS[0]!.text}`, ...extra });

/** Every value of every table (FTS shadow tables included), as one string. */
async function everyStoredValue(): Promise<string> {
  const db = sideClient(world.databaseUrl);
  try {
    const tables = await db.execute("SELECT name FROM sqlite_master WHERE type = 'table'");
    const out: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await db.execute(`SELECT * FROM "${String(name)}"`);
      for (const row of rows.rows) for (const value of Object.values(row)) out.push(value instanceof ArrayBuffer ? Buffer.from(value).toString("latin1") : String(value));
    }
    return out.join("\n");
  } finally {
    db.close();
  }
}

const hookLog = (home: string) => {
  const file = path.join(home, ".cache", "baton", "hook.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};

beforeAll(() => {
  repo = makeRepo(path.join(world.dir, "src", "web"), { remote: "https://github.com/acme/web.git", commits: ["start"] });
  transcriptPath = path.join(world.dir, "transcript.jsonl");
  writeFileSync(transcriptPath, transcript());
});

describe("the session-end hook withholds secrets", () => {
  it("posts a handoff and proposals that carry none of them, and says what was withheld", async () => {
    const home = path.join(world.dir, "home-up");
    const result = await runBaton(["hook", "stop"], { cwd: repo, env: homeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! }), input: stopInput() });
    expect(result.code).toBe(0);
    await waitFor("the worker", () => /session-end worker \(Stop\): sent \d+, spooled 0, refused 0/.test(hookLog(home)));

    const handoffs = (await world.as("ana")("GET", "/api/projects/web/handoffs")).json.items as { markdown: string }[];
    expect(handoffs).toHaveLength(1);
    const markdown = handoffs[0]!.markdown;
    expect(markdown.split("\n")[1]).toMatch(/^\d+ secrets and 1 private block withheld by baton\.$/);
    expect(markdown).toContain("[withheld: GitHub token]");
    expect(markdown).toContain("[withheld: private key]");
    const proposals = (await world.as("ana")("GET", "/api/proposals?limit=100")).json.items as { content: string; evidence: unknown }[];
    // The carriers worked: statements that held a credential arrived (as many as a session may propose),
    // with the credential withheld, in their content and in the evidence lines they carry.
    const carriers = proposals.filter((p) => /\[withheld: |\[private: withheld\]/.test(p.content));
    expect(carriers).toHaveLength(MAX_PROPOSALS_PER_SESSION);
    expect(carriers.every((p) => /\[withheld: |\[private: withheld\]/.test(JSON.stringify(p.evidence)))).toBe(true);

    const stored = await everyStoredValue();
    expect(stored).toContain("withheld by baton");
    for (const sample of SECRET_CORPUS) expect(stored, sample.name).not.toContain(sample.secret);
  });

  it("spools nothing secret when the server is down", async () => {
    const home = path.join(world.dir, "home-down");
    const closed = `http://127.0.0.1:${await freePort()}`;
    const result = await runBaton(["hook", "session-end"], { cwd: repo, env: homeEnv(home, { BATON_URL: closed, BATON_TOKEN: world.tokens.ana! }), input: stopInput({ session_id: "redact-spooled", hook_event_name: "SessionEnd" }) });
    expect(result.code).toBe(0);
    await waitFor("the worker to spool", () => /session-end worker \(SessionEnd\): sent 0, spooled \d+/.test(hookLog(home)));
    const dir = path.join(home, ".cache", "baton", "spool");
    const files = readdirSync(dir);
    expect(files.length).toBeGreaterThan(5);
    const spooled = files.map((f) => readFileSync(path.join(dir, f), "utf8")).join("\n");
    expect(spooled).toContain("withheld by baton");
    for (const sample of SECRET_CORPUS) expect(spooled, sample.name).not.toContain(sample.secret);
    // Nothing else under the cache holds one either (jobs are deleted once read; the log names no secret).
    expect(readdirSync(path.join(home, ".cache", "baton", "jobs"))).toEqual([]);
    for (const sample of SECRET_CORPUS) expect(hookLog(home), sample.name).not.toContain(sample.secret);
  });
});


// Shapes the audit of session 20 found passing: header credentials, command-line passwords, tokens
// after a JSON-escaped newline, a secret at the edge of a tool output cut to MAX_TOOL_OUTPUT, and `!`
// bash mode read as the user's own words. One session through the real hook, worker and server.
describe("the session-end hook withholds the shapes found in session 20", () => {
  const b64 = "YWxpY2U6UzNj" + "cjN0UGFzc3cwcmQ=";
  const ghp = "gh" + "p_" + "k3Rz9QwXc7VbN2mLp8TyHs4JdF6aGe1UiO0q";
  const secrets = [b64, "Hunter2Hunter2", "S3cr3tPass99", ghp, "Sup3rS3cret99", "whsec_AbCdEf1234567890GhIjKlMn"];

  it("sends none of them, and no proposal from a `!` command's output", async () => {
    let env = "";
    for (let i = 0; env.length < 3900; i++) env += `CONFIG_VALUE_${i}=on\n`;
    // The password ends exactly where the output is cut (4000 characters).
    env = env.padEnd(4000 - "DB_PASSWORD=Sup3rS3cret99".length - 1, "x") + "\nDB_PASSWORD=Sup3rS3cret99\n" + "TRAILER=1\n".repeat(100);
    let n = 0;
    const at = () => `2026-01-13T09:00:${String(n++).padStart(2, "0")}.000Z`;
    const msg = (type: "user" | "assistant", content: unknown) => JSON.stringify({ type, sessionId: "redact-20", cwd: repo, gitBranch: "main", timestamp: at(), message: { role: type, content } });
    const tool = (id: string, command: string) => msg("assistant", [{ type: "text", text: "Running it." }, { type: "tool_use", id, name: "Bash", input: { command } }]);
    const result = (id: string, content: string, failed = false) => msg("user", [{ type: "tool_result", tool_use_id: id, content, is_error: failed }]);
    const lines = [
      msg("user", `Fix the deploy. I ran curl -H 'Authorization: Basic ${b64}' https://api.example.com and curl -u deploy:Hunter2Hunter2 https://x.example.com`),
      msg("user", String.raw`the secrets API returned {"SecretString":"deploy creds:\n${ghp}"} and the deploy still 401s`),
      msg("user", "<bash-input>cat docs/STYLE.md</bash-input>"),
      msg("user", "<bash-stdout>Always run the linter with --fix before opening a pull request.</bash-stdout><bash-stderr></bash-stderr>"),
      tool("a", "npm run migrate"),
      result("a", env, true),
      msg("assistant", "The migrate script needs NODE_ENV because the config loader only reads .env.production by default."),
      tool("b", "NODE_ENV=production npm run migrate"),
      result("b", "migrated 3 files"),
      tool("c", "mysql -u root -pS3cr3tPass99 app < dump.sql && echo STRIPE_WEBHOOK=whsec_AbCdEf1234567890GhIjKlMn"),
      result("c", "ok"),
      msg("assistant", "Migrations ran."),
    ];
    const file = path.join(world.dir, "transcript-20.jsonl");
    writeFileSync(file, lines.join("\n") + "\n");
    const home = path.join(world.dir, "home-20");
    const input = JSON.stringify({ session_id: "redact-20", transcript_path: file, cwd: repo, hook_event_name: "Stop", last_assistant_message: "Migrations ran." });
    const run = await runBaton(["hook", "stop"], { cwd: repo, env: homeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! }), input });
    expect(run.code).toBe(0);
    await waitFor("the worker", () => /session-end worker \(Stop\): sent \d+, spooled 0, refused 0/.test(hookLog(home)));

    const proposals = (await world.as("ana")("GET", "/api/proposals?limit=100")).json.items as { content: string; lesson: string; evidence: unknown }[];
    // The failure and its fix arrived (the cut output is in its evidence), with the password withheld.
    expect(proposals.some((p) => p.lesson === "resolved_failure" && JSON.stringify(p.evidence).includes("[withheld: secret]"))).toBe(true);
    expect(proposals.map((p) => p.content).join("\n")).not.toMatch(/linter with --fix/);
    const stored = await everyStoredValue();
    for (const secret of secrets) expect(stored, secret).not.toContain(secret);
  });
});
