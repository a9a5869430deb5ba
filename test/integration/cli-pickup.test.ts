import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byline, fenced, quoteLines } from "@/lib/context/pack/fence";
import { apiClient } from "../support/api";
import { sideClient } from "../support/side-db";
import { createProject, createUserWithToken } from "../support/fixtures";
import { freePort, startServer, tempDir, type RunningServer } from "../support/server";
import { homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";

// `baton session new` queues a session document; `baton pickup` claims one and injects the files
// it lists, read fresh, never from outside the repository.

const tmp = tempDir("baton-cli-pickup-");
const databaseUrl = `file:${tmp.dir}/pickup.db`;
let server: RunningServer;
let token: string;
let repo: string;
let env: Record<string, string>;
const home = path.join(tmp.dir, "home");
const SPEC = "# Revoke spec\n\nTokens can be revoked from the list.\n";
const A_TS = "export const a = 1;\n";
const BIG = Array.from({ length: 200 }, (_, i) => `line ${i + 1} of a big file`).join("\n") + "\n";

async function queue(markdown: string): Promise<string> {
  const res = await apiClient(server.url, token)("POST", "/api/projects/web/sessions", { markdown });
  expect(res.status, res.text).toBe(201);
  return res.json.session.id;
}

beforeAll(async () => {
  server = await startServer({ databaseUrl });
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  await createProject(server.url, token, "web");
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { branch: "feat/revoke", remote: "git@github.com:acme/web.git", commits: ["One"] });
  mkdirSync(path.join(repo, "docs"));
  mkdirSync(path.join(repo, "src"));
  writeFileSync(path.join(repo, "docs", "spec.md"), SPEC);
  writeFileSync(path.join(repo, "src", "a.ts"), A_TS);
  writeFileSync(path.join(repo, "src", "big.ts"), BIG);
  writeFileSync(path.join(repo, "img.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
  mkdirSync(path.join(tmp.dir, "outside"));
  writeFileSync(path.join(tmp.dir, "outside", "secret.txt"), "TOP SECRET\n");
  symlinkSync(path.join(tmp.dir, "outside", "secret.txt"), path.join(repo, "link-out"));
  symlinkSync(path.join(repo, "docs", "spec.md"), path.join(repo, "link-in"));
  env = homeEnv(home, { BATON_URL: server.url, BATON_TOKEN: token });
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

describe("baton session new, then baton pickup", () => {
  it("queues a document with its front matter filled, and pickup prints it and the listed files", async () => {
    const queued = await runBaton(["session", "new", "--spec", "docs/spec.md", "--file", "src/a.ts", "--priority", "high", "--title", "Finish revoke", "--tag", "auth"], {
      cwd: repo,
      env,
      input: "The button exists; wire the empty state.\n",
    });
    expect(queued.code, queued.stderr).toBe(0);
    const { session } = JSON.parse(queued.stdout);
    expect(session).toMatchObject({ project: "web", status: "todo", priority: 1, branch: "feat/revoke", specs: ["docs/spec.md"], files: ["src/a.ts"], tags: ["auth"], workingDirectory: repo });
    expect(session.id).toMatch(/^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}-[0-9a-f]{4}$/);
    expect(session.markdown).toMatch(new RegExp(`^---\\nid: "${session.id}"\\npriority: "high"\\ntags: \\["auth"\\]\\nbranch: "feat/revoke"\\nspecs: \\["docs/spec.md"\\]\\nfiles: \\["src/a.ts"\\]\\ncreated_at: "[^"]+"\\nworking_directory: ${JSON.stringify(JSON.stringify(repo)).slice(1, -1)}\\n---\\n\\n# Finish revoke\\n\\nThe button exists; wire the empty state.\\n$`));

    const picked = await runBaton(["pickup"], { cwd: repo, env });
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toBe(
      `Session claimed: ${session.id}\n\n=== Session Content ===\n${fenced("Session document", [byline(session.author), `queued ${session.createdAt}`], session.markdown)}\n\n=== Injected Files ===\n\n--- docs/spec.md ---\n${SPEC}\n--- src/a.ts ---\n${A_TS}`,
    );
    const after = await apiClient(server.url, token)("GET", `/api/sessions/${session.id}`);
    expect(after.json.session.status).toBe("doing");
  });

  it("takes paths relative to where it runs, refuses one outside the repository, injects from the root", async () => {
    const sub = path.join(repo, "docs");
    const ok = await runBaton(["session", "new", "--file", "../src/a.ts", "--spec", "spec.md", "-m", "From a subfolder."], { cwd: sub, env });
    expect(ok.code, ok.stderr).toBe(0);
    const { session } = JSON.parse(ok.stdout);
    expect(session).toMatchObject({ specs: ["docs/spec.md"], files: ["src/a.ts"] });
    // Picked up from the subfolder too, the files are read from the repository root.
    const picked = await runBaton(["pickup", session.id], { cwd: sub, env });
    expect(picked.stdout).toContain(`--- docs/spec.md ---\n${SPEC}\n--- src/a.ts ---\n${A_TS}`);
    const outside = await runBaton(["session", "new", "--file", "../../../outside/secret.txt", "-m", "x"], { cwd: sub, env });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/--file \.\.\/\.\.\/\.\.\/outside\/secret\.txt is outside the repository/);
    expect(outside.stdout).toBe("");
  });

  it("the server refuses a document listing a path outside the repository, and names it", async () => {
    for (const listed of ["/etc/passwd", "../outside/secret.txt", "docs/../../outside/secret.txt", "~/.ssh/id_rsa", "C:\\\\Users\\\\ana\\\\.aws\\\\credentials"]) {
      const res = await apiClient(server.url, token)("POST", "/api/projects/web/sessions", { markdown: `---\nfiles: ["${listed}"]\n---\nRead it.\n` });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.message).toContain("list paths inside the repository");
    }
  });

  it("refuses absolute paths, .. and symlinks out of the repository (a document stored before the server refused them); warns about missing files and goes on", async () => {
    const id = await queue('---\nid: traversal\nspecs: ["docs/spec.md"]\n---\nPaths from anyone in the project.\n');
    const specs = ["/etc/passwd", "../outside/secret.txt", "docs/../../outside/secret.txt", "link-out", "missing.md", "src", "img.bin", "link-in", "docs/spec.md"];
    const db = sideClient(databaseUrl);
    try {
      await db.execute({ sql: "UPDATE session_docs SET specs = ?, files = ? WHERE id = ?", args: [JSON.stringify(specs), JSON.stringify(["docs/spec.md", "src/a.ts", "~/.ssh/id_rsa"]), id] });
    } finally {
      db.close();
    }
    const picked = await runBaton(["pickup", id], { cwd: repo, env });
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).not.toContain("TOP SECRET");
    const injected = picked.stdout.split("=== Injected Files ===\n")[1];
    expect(injected).toBe(
      [
        "",
        "[Warning: Refused /etc/passwd: an absolute path; only paths inside the repository are injected]",
        "",
        "[Warning: Refused ../outside/secret.txt: a path with ..; only paths inside the repository are injected]",
        "",
        "[Warning: Refused docs/../../outside/secret.txt: a path with ..; only paths inside the repository are injected]",
        "",
        "[Warning: Refused link-out: it resolves outside the repository (symlink)]",
        "",
        "[Warning: File not found: missing.md]",
        "",
        "[Warning: Not a file: src]",
        "",
        "[Warning: Binary file not shown: img.bin]",
        "",
        "--- link-in ---",
        SPEC + "",
        "--- docs/spec.md ---",
        SPEC + "",
        "--- src/a.ts ---",
        A_TS + "",
        "[Warning: Refused ~/.ssh/id_rsa: an absolute path; only paths inside the repository are injected]",
        "",
      ].join("\n"),
    );
  });

  it("cuts the output at --max-chars on a line end and says what was cut", async () => {
    const id = await queue('---\nid: big\nfiles: ["src/big.ts", "src/a.ts", "docs/spec.md"]\n---\nA big one.\n');
    const picked = await runBaton(["pickup", id, "--max-chars", "800"], { cwd: repo, env });
    expect(picked.code).toBe(0);
    expect(picked.stdout.length).toBeLessThanOrEqual(800);
    const match = /\n\[Truncated at 800 characters: src\/big\.ts cut after line (\d+) of 200; not shown: src\/a\.ts, docs\/spec\.md\. Raise the limit with --max-chars\.\]\n$/.exec(picked.stdout);
    expect(match, picked.stdout).not.toBeNull();
    const shown = Number(match![1]);
    expect(shown).toBeGreaterThan(5);
    expect(picked.stdout).toContain(`line ${shown} of a big file\n\n[Truncated`);
    expect(picked.stdout).not.toContain(`line ${shown + 1} of a big file`);
  });

  it("a listed file over 2 GiB: only what can be shown is read, and the claimed session is printed with it cut", async () => {
    // Sparse past its first lines: 2.5 GiB on paper, a few KB on disk. Reading it whole threw after the claim.
    const huge = path.join(repo, "huge.log");
    writeFileSync(huge, BIG.repeat(10));
    truncateSync(huge, 2.5 * 1024 ** 3);
    try {
      const id = await queue('---\nid: huge\nfiles: ["huge.log", "src/a.ts"]\n---\nA huge log.\n');
      const picked = await runBaton(["pickup", id, "--max-chars", "2000"], { cwd: repo, env });
      expect(picked.code, picked.stderr).toBe(0);
      expect(picked.stdout).toContain(`Session claimed: ${id}`);
      expect(picked.stdout).toContain("--- huge.log ---\nline 1 of a big file\n");
      expect(picked.stdout.length).toBeLessThanOrEqual(2000);
      // Its line count is not known without reading it all: the note names where it was cut.
      expect(picked.stdout).toMatch(/\[Truncated at 2000 characters: huge\.log cut after line \d+; not shown: src\/a\.ts\. Raise the limit with --max-chars\.\]\n$/);
    } finally {
      rmSync(huge);
    }
  });

  it("--no-inject prints the document alone; a document without files has no injected section", async () => {
    const withFiles = await queue('---\nid: no-inject\nfiles: ["src/a.ts"]\n---\nDocument only.\n');
    const a = await runBaton(["pickup", withFiles, "--no-inject"], { cwd: repo, env });
    expect(a.code).toBe(0);
    // The document is quoted under who queued it and when.
    const quoted = (out: string, id: string, markdown: string) => {
      expect(out).toMatch(new RegExp(`^Session claimed: ${id}\\n\\n=== Session Content ===\\nSession document \\(by [^,]+, queued [^)]+\\), quoted:\\n`));
      expect(out.slice(out.indexOf("quoted:\n") + 8)).toBe(`${quoteLines(markdown).join("\n")}\n`);
    };
    quoted(a.stdout, "no-inject", '---\nid: no-inject\nfiles: ["src/a.ts"]\n---\nDocument only.\n');
    const bare = await queue("---\nid: bare\n---\nNothing listed.");
    const b = await runBaton(["pickup", bare], { cwd: repo, env });
    expect(b.code).toBe(0);
    quoted(b.stdout, "bare", "---\nid: bare\n---\nNothing listed.");
  });

  describe("errors have typed exit codes", () => {
    const cases: { name: string; args: string[]; env?: () => Record<string, string>; cwd?: () => string; code: number; stderr: RegExp }[] = [
      { name: "already claimed", args: ["pickup", "bare"], code: 3, stderr: /already claimed by you/ },
      { name: "no such session", args: ["pickup", "nope"], code: 4, stderr: /No session document "nope"/ },
      { name: "empty queue", args: ["pickup"], code: 4, stderr: /Nothing is queued in "web"/ },
      { name: "no project of the user's matches the repository", args: ["pickup"], cwd: () => makeRepo(path.join(tmp.dir, "src", "nowhere")), code: 4, stderr: /no project of yours matches this repository \(directory .*nowhere\): pass --project/ },
      { name: "bad --max-chars", args: ["pickup", "--max-chars", "lots"], code: 2, stderr: /--max-chars/ },
      { name: "unknown option", args: ["pickup", "--bogus"], code: 2, stderr: /bogus/ },
      { name: "bad token", args: ["pickup"], env: () => ({ BATON_URL: server.url, BATON_TOKEN: "baton_wrong" }), code: 6, stderr: /not valid/ },
      { name: "server down", args: ["pickup"], env: () => ({ BATON_URL: "http://127.0.0.1:9", BATON_TOKEN: token }), code: 5, stderr: /not reachable at http:\/\/127\.0\.0\.1:9/ },
      { name: "not configured", args: ["pickup"], env: () => ({}), code: 2, stderr: /no Baton server configured/ },
      { name: "session new with a bad priority", args: ["session", "new", "--priority", "urgent", "-m", "x"], code: 2, stderr: /priority/ },
    ];
    it.each(cases)("$name → exit $code", async ({ args, env: e, cwd, code, stderr }) => {
      const result = await runBaton(args, { cwd: cwd?.() ?? repo, env: homeEnv(home, e ? e() : { BATON_URL: server.url, BATON_TOKEN: token }) });
      expect(result.code, result.stderr).toBe(code);
      expect(result.stderr).toMatch(stderr);
      expect(result.stdout).toBe("");
    });
  });

  it("server down on a closed port", async () => {
    const port = await freePort();
    const result = await runBaton(["pickup"], { cwd: repo, env: homeEnv(home, { BATON_URL: `http://127.0.0.1:${port}`, BATON_TOKEN: token }) });
    expect(result.code).toBe(5);
  });

  it("handoff show prints the latest handoff, preferring this branch; learnings lists the project's", async () => {
    const none = await runBaton(["handoff", "show"], { cwd: repo, env });
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/No handoff in "web" yet/);
    const api = apiClient(server.url, token);
    expect((await api("POST", "/api/projects/web/handoffs", { markdown: "On the branch.", branch: "feat/revoke", sessionId: "h1" })).status).toBe(201);
    expect((await api("POST", "/api/projects/web/handoffs", { markdown: "Newer, on main.", branch: "main", sessionId: "h2" })).status).toBe(201);
    const shown = await runBaton(["handoff", "show"], { cwd: repo, env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ ok: true, matchedBranch: true, handoff: { markdown: "On the branch.", branch: "feat/revoke", author: "ana" } });

    expect((await api("POST", "/api/learnings", { kind: "pattern", content: "Revoke tokens with a soft delete", project: "web" })).status).toBe(201);
    const listed = await runBaton(["learnings", "revoke", "--project", "web"], { cwd: repo, env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).items.map((l: { content: string }) => l.content)).toEqual(["Revoke tokens with a soft delete"]);
  });
});
