import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { startCluster, within, type Cluster, type ShapeName } from "../support/cluster";
import { createProject } from "../support/fixtures";

/**
 * Faults of a libSQL server under two running instances: the primary killed and brought back, a
 * replica restarted, a replica stalled. Every answer meanwhile is a 200 or a 503 in the JSON error
 * shape with Retry-After, in time (the context route within the session-start hook's 2 s), and every
 * instance recovers by itself.
 */
const CONTEXT_LIMIT_MS = 2_000;
const ANY_LIMIT_MS = 5_000;
// How quickly recovery happens is not the point (a loaded CI machine is slow); that it happens is.
const RECOVERY_MS = 30_000;
// A request the test waits for at most: one past it is a probe with no answer (status 0), which fails the
// probe's own limit or keeps `healthy` false, rather than holding the test until its time limit.
const PROBE_WAIT_MS = 10_000;
// Room past RECOVERY_MS for the fault's own probes (three to six) and for one recovery check begun just
// before the deadline (six requests), each waited for at most PROBE_WAIT_MS, so that a slow recovery or a
// request with no answer fails on its own verdict, with both servers' logs, not on the test's time limit
// (CI on 1000533 and on 98c947e: the replica-stall test ran out its 60 s, then 90 s, with no log).
const FAULT_TEST_MS = RECOVERY_MS + 12 * PROBE_WAIT_MS + 10_000;

type Probe = { status: number; ms: number; retryAfter: string | null; code?: string; text: string };

function expectAvailableOr503(probe: Probe, limitMs: number, what: string) {
  expect(probe.ms, `${what} took ${Math.round(probe.ms)} ms: ${probe.status} ${probe.text.slice(0, 200)}`).toBeLessThan(limitMs);
  expect([200, 201, 503], `${what} answered ${probe.status}: ${probe.text.slice(0, 300)}`).toContain(probe.status);
  if (probe.status === 503) {
    expect(probe.code, what).toBe("database_unavailable");
    expect(Number(probe.retryAfter), what).toBeGreaterThan(0);
  }
}

describe.each<ShapeName>(["remote", "replica"])("%s shape under faults", (shape) => {
  let cluster: Cluster;
  let token: string;
  const call = async (which: "a" | "b", method: string, path: string, body?: unknown): Promise<Probe> => {
    const started = performance.now();
    const label = `${method} ${path.split("?")[0]} on ${which}`;
    const answered = apiClient(cluster[which].url, token)(method, path, body).then((res) => ({
      status: res.status,
      ms: performance.now() - started,
      retryAfter: res.headers.get("retry-after"),
      code: res.json?.error?.code,
      text: `${label}: ${res.text}`,
    }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unanswered = new Promise<Probe>((resolve) => {
      timer = setTimeout(() => resolve({ status: 0, ms: performance.now() - started, retryAfter: null, text: `${label}: no answer in ${PROBE_WAIT_MS} ms` }), PROBE_WAIT_MS);
    });
    try {
      return await Promise.race([answered, unanswered]);
    } finally {
      clearTimeout(timer);
    }
  };
  const context = (which: "a" | "b") => call(which, "GET", `/api/context?project=alpha&format=json&sessionId=${crypto.randomUUID()}&q=deploy`);
  const write = (which: "a" | "b") => call(which, "POST", "/api/learnings", { kind: "insight", content: `Fault probe ${crypto.randomUUID()}`, project: "alpha" });
  const health = (which: "a" | "b") => call(which, "GET", "/api/health");
  const healthy = async () => {
    for (const which of ["a", "b"] as const) {
      if ((await health(which)).status !== 200) return false;
      if ((await context(which)).status !== 200 || (await write(which)).status !== 201) return false;
    }
    return true;
  };

  /** Waits for both instances to serve again; if they do not, shows what their servers logged. */
  const expectRecovery = async (after: string) => {
    const took = await within(RECOVERY_MS, healthy);
    if (took === null) console.error(`after ${after}:\n--- a ---\n${cluster.a.output().slice(-3000)}\n--- b ---\n${cluster.b.output().slice(-3000)}`);
    expect(took, `instances did not recover after ${after}`).not.toBeNull();
  };

  /** Without the primary: contexts in time (200 from a copy that can serve, else 503); every write 503. */
  const expectReadsInTimeAndWrites503 = async () => {
    const writes: number[] = [];
    for (const which of ["a", "b"] as const) {
      expectAvailableOr503(await context(which), CONTEXT_LIMIT_MS, `context on ${which}`);
      const written = await write(which);
      expectAvailableOr503(written, ANY_LIMIT_MS, `write on ${which}`);
      writes.push(written.status);
    }
    expect(writes).toEqual([503, 503]);
  };

  beforeAll(async () => {
    cluster = await startCluster(shape);
    const user = await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], { env: cluster.adminEnv });
    expect(user.code, user.stderr).toBe(0);
    const created = await runCli(["admin", "create-token", "--email", "ana@example.com", "--name", "faults", "--scope", "write"], { env: cluster.adminEnv });
    token = created.stdout.trim();
    await within(cluster.stalenessMs + 1_000, async () => (await apiClient(cluster.a.url, token)("GET", "/api/projects")).status === 200);
    await createProject(cluster.a.url, token, "alpha");
    expect(await within(RECOVERY_MS, healthy)).not.toBeNull();
  }, 120_000);
  afterAll(async () => cluster?.stop());

  it("the primary stopped: 503s in time (never a 500 or a hang), health says unreachable; recovery without restart", async () => {
    await cluster.primary!.kill();
    await expectReadsInTimeAndWrites503();
    const primaryHealth = await health(shape === "remote" ? "a" : "b");
    expectAvailableOr503(primaryHealth, ANY_LIMIT_MS, "health");
    expect(primaryHealth.status).toBe(503);

    await cluster.primary!.restart();
    await expectRecovery("the primary came back");
  }, FAULT_TEST_MS);

  it("the primary stalled (SIGSTOP): every answer in time, writes 503, then recovery", async () => {
    await cluster.primary!.pause();
    try {
      await expectReadsInTimeAndWrites503();
      // Again, now that each instance has written (a 503, which may still have reached the primary):
      // a replica whose sync already failed answers from its file at once, not after another timeout
      // for each of a context's read batches.
      await expectReadsInTimeAndWrites503();
    } finally {
      cluster.primary!.resume();
    }
    await expectRecovery("the primary resumed");
  }, FAULT_TEST_MS);

  // A sqld replica (the remote shape's instance b reads from one) has faults of its own.
  if (shape === "remote") {
    it("the replica restarted: its instance answers 503 meanwhile and recovers", async () => {
      await cluster.replica!.kill();
      for (const probe of [await context("b"), await write("b"), await health("b")]) expectAvailableOr503(probe, ANY_LIMIT_MS, "on b");
      expect((await health("b")).status).toBe(503);
      expect((await context("a")).status).toBe(200);
      await cluster.replica!.restart();
      await expectRecovery("the replica came back");
    }, FAULT_TEST_MS);

    it("the replica stalled (SIGSTOP): answers in time as 503, then recovers", async () => {
      await cluster.replica!.pause();
      try {
        const probes = [await context("b"), await write("b"), await health("b")];
        for (const probe of probes) expectAvailableOr503(probe, ANY_LIMIT_MS, "on b");
        expect(probes[0]!.ms).toBeLessThan(CONTEXT_LIMIT_MS);
        expect(probes.map((p) => p.status)).toContain(503);
      } finally {
        cluster.replica!.resume();
      }
      await expectRecovery("the replica resumed");
    }, FAULT_TEST_MS);
  }
});
