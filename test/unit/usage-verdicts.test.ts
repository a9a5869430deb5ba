import { describe, expect, it } from "vitest";
import { toolCall, type Session, type SessionEvent } from "../../cli/src/agents/session";
import { distinctiveWords, learningCommands, sessionFacts, verdictOf } from "../../cli/src/usage/verdicts";

// The verdict rules of "used or not" (issue 27) on made-up sessions: decided on the developer's machine.
const ROOT = "/home/ana/web";
const session = (events: SessionEvent[]): Session => ({ agent: "claude", events, sessionId: "s", cwd: ROOT, branch: null, model: null, firstAt: null, lastAt: null });
const say = (text: string): SessionEvent => ({ kind: "assistant", text, at: null });
const facts = (...events: SessionEvent[]) => sessionFacts(session(events), ROOT, ROOT);
const learning = (content: string, files: string[] = []) => ({ id: "l", content, files });

describe("verdictOf", () => {
  it("touched by a file it names: edited, read, or deleted by a shell command", () => {
    const edited = facts(toolCall("Edit", { file_path: `${ROOT}/src/db/migrate.ts` }, null, { files: [{ path: `${ROOT}/src/db/migrate.ts`, how: "edited" }] }));
    expect(verdictOf(learning("Migrations run at start.", ["src/db/migrate.ts"]), edited)).toMatchObject({ touched: true, how: "file" });
    const read = facts(toolCall("Read", { file_path: "src/db/migrate.ts" }, null));
    expect(verdictOf(learning("x", ["src/db/migrate.ts"]), read)).toMatchObject({ touched: true, how: "file" });
    const removed = facts(toolCall("Bash", { command: "git rm -q src/db/migrate.ts" }, null, { command: "git rm -q src/db/migrate.ts" }));
    expect(removed.deleted.has("src/db/migrate.ts")).toBe(true);
    expect(verdictOf(learning("x", ["src/db/migrate.ts"]), removed)).toMatchObject({ touched: true, how: "file" });
    // A bare name matches that file in any folder; another file of the same folder does not count.
    expect(verdictOf(learning("x", ["package.json"]), facts(toolCall("Read", { file_path: `${ROOT}/cli/package.json` }, null)))).toMatchObject({ how: "file" });
    expect(verdictOf(learning("x", ["src/db/migrate.ts"]), facts(toolCall("Read", { file_path: `${ROOT}/src/db/client.ts` }, null))).touched).toBe(false);
  });

  it("touched by a command it names that the session ran", () => {
    const ran = facts(toolCall("Bash", { command: "cd web &&  npm run   db:generate" }, null, { command: "cd web &&  npm run   db:generate" }));
    expect(verdictOf(learning("After editing the schema, run `npm run db:generate`."), ran)).toMatchObject({ touched: true, how: "command" });
    expect(verdictOf(learning("Always make check before pushing."), ran).touched).toBe(false);
    expect(learningCommands("Use `pnpm install`, then make lint; see `README`.")).toEqual(["pnpm install", "make lint"]);
  });

  it("touched by its distinctive words only when the session used two of them; prose words never count", () => {
    const l = learning("The recordServedBatch writer buffers SESSION_SERVED_RETENTION_DAYS rows.");
    expect(distinctiveWords(l.content)).toEqual(["recordServedBatch", "SESSION_SERVED_RETENTION_DAYS"]);
    expect(verdictOf(l, facts(say("I changed recordServedBatch and SESSION_SERVED_RETENTION_DAYS.")))).toMatchObject({ touched: true, how: "words" });
    expect(verdictOf(l, facts(say("I looked at recordServedBatch only."))).touched).toBe(false);
    expect(verdictOf(learning("Deploys happen on Tuesdays after the release review."), facts(say("Deploys happen on Tuesdays after the release review.")))).toMatchObject({ touched: false, how: null });
    expect(distinctiveWords("Pin v16.4.1, e.g. in CI; 2026-11-26 is the date.")).toEqual([]);
  });

  it("what a tool answered is not the session's own words", () => {
    const l = learning("Use fetchPage and decodeCursor for lists.");
    const answered = facts(toolCall("Read", { file_path: "x.md" }, null, { output: "fetchPage decodeCursor" }));
    expect(verdictOf(l, answered).touched).toBe(false);
  });
});
