import { describe, expect, it } from "vitest";
import { loadHalf, recallOf, score } from "../../bench/lessons/measure";
import { emptySession, toolCall, type SessionEvent } from "@/cli/src/agents/session";
import { extractLessons } from "@/cli/src/lessons/extract-lessons";
import { MAX_PROPOSALS_PER_SESSION } from "@/lib/rules";

// The lesson extractor (issue 23): the four kinds of lesson a session teaches, each with its evidence,
// and what must not become one. First small sessions made up for each rule, then the labelled sets as
// bench/lessons.ts scores them.

const at = (n: number) => `2026-11-20T10:${String(n).padStart(2, "0")}:00.000Z`;
const user = (text: string, n = 0): SessionEvent => ({ kind: "user", text, at: at(n) });
const agent = (text: string, n = 0): SessionEvent => ({ kind: "assistant", text, at: at(n) });
const shell = (command: string, failed: boolean, output: string, n = 0) => toolCall("Bash", { command }, at(n), { command, failed, output });
const edit = (path: string, n = 0) => toolCall("Edit", { file_path: path }, at(n), { files: [{ path, how: "edited" }], failed: false, output: "ok" });
const lessons = (...events: SessionEvent[]) => extractLessons({ ...emptySession("codex"), events });

describe("extractLessons", () => {
  it("a correction: the user contradicting what the agent just did, with both lines as evidence", () => {
    const found = lessons(user("add lodash to the web app"), shell("npm install lodash", false, "added 1 package", 1), user("no, this repo uses pnpm, not npm. the lockfile is pnpm-lock.yaml", 2));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ lesson: "correction", kind: "pattern" });
    expect(found[0]!.content).toMatch(/pnpm.*not npm/);
    expect(found[0]!.evidence.map((e) => [e.turn, e.who])).toEqual([
      [1, "tool"],
      [2, "user"],
    ]);
    expect(found[0]!.evidence[1]!.at).toBe(at(2));
  });

  it("a resolved failure: the failing command, the error, and what made it pass", () => {
    const found = lessons(
      user("the date test fails, fix it"),
      shell("npm test", true, "FAIL test/date.test.ts\n  expected 2026-01-01 to equal 2025-12-31", 1),
      agent("CI runs with TZ=UTC, that's why it only fails locally: the test formats a date in the local zone.", 2),
      shell("TZ=UTC npm test", false, "Tests: 42 passed", 3),
    );
    const failure = found.find((l) => l.lesson === "resolved_failure");
    expect(failure?.content).toContain("`TZ=UTC`");
    expect(failure?.content).toContain("npm test");
    expect(failure?.evidence.map((e) => e.turn)).toEqual([1, 2, 3]);
  });

  it("a decision: the user's pick among the agent's options, with the option's words", () => {
    const found = lessons(
      user("orders must reach the billing service reliably"),
      agent("Options: (a) publish to Kafka from the handler; (b) an outbox table written in the same transaction and relayed by a worker, so nothing is lost if Kafka is down.", 1),
      user("b. we lost events last month exactly that way", 2),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ lesson: "decision" });
    expect(found[0]!.content).toMatch(/outbox table/);
    expect(found[0]!.content).toMatch(/lost events/);
  });

  it("a fact the agent found in a tool's output", () => {
    const found = lessons(
      user("why does the worker not see the new env var?"),
      shell("grep -n env_file docker-compose.yml", false, "14:    env_file: .env.docker", 1),
      agent("That's why: the worker service only reads .env.docker (env_file on line 14), not .env.", 2),
    );
    expect(found.map((l) => l.lesson)).toEqual(["fact"]);
    expect(found[0]!.content).toContain(".env.docker");
  });

  it.each([
    ["a question", [user("set up the release script"), agent("Done, scripts/release.sh is in place.", 1), user("does it also tag the commit?", 2)]],
    ["a one-off order", [user("bump the version"), edit("package.json", 1), user("now run the tests and commit it", 2)]],
    ["a guess", [user("why is the build slow?"), shell("npm run build", false, "built in 94s", 1), agent("I think it's probably the source maps; maybe the image step.", 2)]],
    ["a run that failed and never passed", [user("deploy it"), shell("make deploy", true, "error: no credentials", 1), agent("The deploy needs credentials I do not have.", 2)]],
  ])("%s is not a lesson", (_name, events) => {
    expect(lessons(...events)).toEqual([]);
  });

  it(`proposes at most ${MAX_PROPOSALS_PER_SESSION} per session, the most confident first`, () => {
    const corrections = ["this repo uses pnpm, not npm", "we lint with ruff, not flake8", "staging lives in eu-west-1, not us-east-1", "migrations go through alembic, not raw sql files", "the api speaks grpc, not rest", "logs ship to loki, not elasticsearch", "secrets come from vault, not dotenv files"];
    const events = corrections.flatMap((c, i) => [shell(`make step${i}`, false, "ok", i), user(`no, ${c}`, i)]);
    const found = lessons(user("run the steps"), ...events);
    expect(found).toHaveLength(MAX_PROPOSALS_PER_SESSION);
    expect(found.map((l) => l.confidence)).toEqual([...found.map((l) => l.confidence)].sort((a, b) => b - a));
  });
});

describe("lesson extraction quality (bench/lessons.ts)", () => {
  it("on the tuning half: recall at least 0.85, at most 2 false proposals per 10 sessions", () => {
    const tune = score(loadHalf("tune"));
    expect(recallOf(tune)).toBeGreaterThanOrEqual(0.85);
    expect(tune.falses.length / tune.sessions).toBeLessThanOrEqual(0.2);
  });

  it("on the held-out half (never tuned on): no worse than measured when it was frozen and first scored", () => {
    const heldOut = score(loadHalf("held-out"));
    expect(heldOut.sessions).toBe(12);
    expect(recallOf(heldOut)).toBeGreaterThanOrEqual(0.6);
    expect(recallOf(heldOut, ["explicit"])).toBe(1);
  });
});
