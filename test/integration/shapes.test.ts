import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { startCluster, within, type Cluster, type ShapeName } from "../support/cluster";
import { createProject } from "../support/fixtures";

/**
 * The same behaviours in each of Baton's database shapes, with two instances on one database:
 * one file (embedded), a sqld primary and its replica (remote), and two embedded replicas of a sqld
 * primary (replica).
 */
const SHAPES: ShapeName[] = ["embedded", "remote", "replica"];
/** Tokens are remembered for 5 s after a lookup (lib/auth/api-tokens.ts). */
const TOKEN_MEMORY_MS = 5_000;

async function adminToken(cluster: Cluster, email: string, existing = false): Promise<string> {
  if (!existing) {
    const user = await runCli(["admin", "create-user", "--email", email, "--password", "long enough pass"], { env: cluster.adminEnv });
    expect(user.code, user.stderr).toBe(0);
  }
  const token = await runCli(["admin", "create-token", "--email", email, "--name", `${email} ${Math.random()}`, "--scope", "write"], { env: cluster.adminEnv });
  expect(token.code, token.stderr).toBe(0);
  return token.stdout.trim();
}

describe.each(SHAPES)("%s shape, two instances", (shape) => {
  let cluster: Cluster;
  let token: string;
  const on = (which: "a" | "b", t = token) => apiClient(cluster[which].url, t);

  beforeAll(async () => {
    // What these check is correctness, not speed: a loaded CI machine must not turn slow answers into
    // 503s (shape-faults.test.ts checks the default timeout).
    cluster = await startCluster(shape, { DATABASE_TIMEOUT_MS: "10000" });
    token = await adminToken(cluster, "ana@example.com");
    // The admin CLI wrote the token to the primary: an embedded replica has it after one sync.
    await within(cluster.stalenessMs + 1_000, async () => (await on("a")("GET", "/api/projects")).status === 200);
    await createProject(cluster.a.url, token, "alpha");
  }, 120_000);
  afterAll(async () => cluster?.stop());

  it("both instances started at once and the migrations were applied once", async () => {
    const lines = [cluster.a, cluster.b].map((s) => /migrations: (none pending|(\d+) applied now) \((\d+) in all\)/.exec(s.output()));
    expect(lines.every(Boolean), cluster.a.output() + cluster.b.output()).toBe(true);
    const total = Number(lines[0]![3]);
    // One instance applied every migration, the other found none pending.
    expect(lines.map((m) => (m![1] === "none pending" ? 0 : Number(m![2]))).sort((x, y) => x - y)).toEqual([0, total]);
    const rows = await cluster.sql("SELECT count(*) AS n FROM __drizzle_migrations");
    expect(Number(rows[0]!.n)).toBe(total);
    for (const s of [cluster.a, cluster.b]) {
      const health = await on(s === cluster.a ? "a" : "b")("GET", "/api/health");
      expect(health.json).toMatchObject({ ok: true, database: shape, databaseReachable: true });
    }
  });

  it("50 claims of one document spread over both instances: exactly one 200", async () => {
    const id = `claim-${shape}`;
    expect((await on("a")("POST", "/api/projects/alpha/sessions", { markdown: `---\nid: ${id}\n---\nOne task.` })).status).toBe(201);
    await within(cluster.stalenessMs + 2_000, async () => (await on("b")("GET", "/api/projects/alpha/sessions")).json.items.some((s: { id: string }) => s.id === id));
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => on(i % 2 ? "a" : "b")("POST", `/api/sessions/${id}/claim`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
  });

  it("a learning added through one instance is in the other's context within the documented staleness", async () => {
    const before = await on("b")("GET", "/api/context?project=alpha&format=text&q=flamingo");
    expect(before.text).not.toContain("flamingo");
    const added = await on("a")("POST", "/api/learnings", { kind: "pattern", content: `Pink flamingo deploys run at noon (${shape})`, project: "alpha", confirmed: true });
    expect(added.status).toBe(201);
    // The writer reads its own write at once.
    expect((await on("a")("GET", "/api/context?project=alpha&format=text&q=flamingo")).text).toContain("Pink flamingo");
    const took = await within(cluster.stalenessMs + 1_000, async () => (await on("b")("GET", "/api/context?project=alpha&format=text&q=flamingo")).text.includes("Pink flamingo"));
    expect(took, "not visible on the other instance in time").not.toBeNull();
  });

  it("an instance reads its own writes at once (on a sqld replica too)", async () => {
    // Instance b: in the remote shape it reads from a sqld replica, which forwards its writes to the primary.
    const misses: string[] = [];
    for (let i = 0; i < 25; i++) {
      const slug = `ryw-${shape}-${i}`;
      const created = await on("b")("POST", "/api/projects", { slug, name: slug });
      expect(created.status, created.text).toBe(201);
      const project = await on("b")("GET", `/api/projects/${slug}`);
      if (project.status !== 200) misses.push(`project ${slug}: ${project.status}`);
      const added = await on("b")("POST", "/api/learnings", { kind: "insight", content: `Read back ${shape} ${i}`, project: slug });
      if (added.status !== 201) misses.push(`learning in ${slug}: ${added.status} ${added.text.slice(0, 100)}`);
      else if ((await on("b")("GET", `/api/learnings/${added.json.learning.id}`)).status !== 200) misses.push(`learning in ${slug}: not read back`);
    }
    expect(misses).toEqual([]);
  });

  it("the same state and query give the same context bytes from every instance", async () => {
    const query = "/api/context?project=alpha&format=text&q=deploys%20noon&budget=1200";
    await within(cluster.stalenessMs + 1_000, async () => (await on("a")("GET", query)).text === (await on("b")("GET", query)).text);
    const [fromA, fromB] = await Promise.all([on("a")("GET", query), on("b")("GET", query)]);
    expect(fromA.status).toBe(200);
    expect(fromA.text.length).toBeGreaterThan(50);
    expect(fromB.text).toBe(fromA.text);
  });

  it("a token revoked through one database write stops working on both instances", async () => {
    const doomed = await adminToken(cluster, "ana@example.com", true);
    for (const which of ["a", "b"] as const) await within(cluster.stalenessMs + 1_000, async () => (await on(which, doomed)("GET", "/api/projects")).status === 200);
    for (const which of ["a", "b"] as const) expect((await on(which, doomed)("GET", "/api/projects")).status).toBe(200);
    await cluster.sql("DELETE FROM api_tokens WHERE id = (SELECT id FROM api_tokens ORDER BY created_at DESC LIMIT 1)");
    for (const which of ["a", "b"] as const) {
      const took = await within(TOKEN_MEMORY_MS + cluster.stalenessMs + 1_000, async () => (await on(which, doomed)("GET", "/api/projects")).status === 401);
      expect(took, `still accepted by instance ${which}`).not.toBeNull();
    }
  });

  it("kill -9 of an instance during 16-way writes loses no acknowledged write", async () => {
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const res = await on("a")("POST", "/api/learnings", { kind: "insight", content: `Crash test ${shape} ${n}-${i}`, project: "alpha" }).catch(() => null);
        if (!res) return;
        if (res.status === 201) acknowledged.push(res.json.learning.id);
      }
    };
    const writers = Array.from({ length: 16 }, (_, n) => writer(n));
    await within(10_000, async () => acknowledged.length >= 40);
    process.kill(-cluster.a.process.pid!, "SIGKILL");
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    const stored = new Set((await cluster.sql("SELECT id FROM learnings WHERE content LIKE ?", [`Crash test ${shape} %`])).map((r) => String(r.id)));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  });
});
