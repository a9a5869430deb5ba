import { describe, expect, it, vi } from "vitest";
import { createClient } from "@libsql/client";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { formError } from "@/lib/actions/form-errors";
import { DATABASE_UNAVAILABLE_MESSAGE, toFailure } from "@/lib/api/errors";
import { isDatabaseUnavailable } from "@/lib/db/database-unavailable";
import { freePort } from "../support/server";

// Shapes of the errors @libsql/client and fetch throw when a libSQL server is out of reach (seen against sqld here).
const refused = Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8080"), { code: "ECONNREFUSED" }) });
const timedOut = new DOMException("The operation was aborted due to timeout", "TimeoutError");
const serverError = Object.assign(new Error("Server returned HTTP status 502"), { code: "SERVER_ERROR" });
const syncFailed = new Error("sync error: error trying to connect: tcp connect error: Connection refused (os error 111)");

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", refused],
    ["a request past the timeout", timedOut],
    ["a 5xx from the server (a replica without its primary)", serverError],
    ["an embedded replica that cannot sync", syncFailed],
    ["the cause of a wrapped error", new Error("query failed", { cause: refused })],
    ["an embedded file locked by another process past the busy timeout", Object.assign(new Error("SQLITE_BUSY: database is locked"), { code: "SQLITE_BUSY" })],
    // A sqld replica bootstrapping again after its primary restarted (shape-faults, CI on a loaded machine).
    ["a replica with no schema yet", Object.assign(new Error("SQLITE_UNKNOWN: SQLite error: no such table: projects"), { code: "SQLITE_UNKNOWN" })],
    ["a replica's namespace not there yet (404)", Object.assign(new Error("SERVER_ERROR: Server returned HTTP status 404"), { code: "SERVER_ERROR" })],
  ])("true for %s", (_, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  it.each([
    ["a wrong auth token (401)", Object.assign(new Error("SERVER_ERROR: Server returned HTTP status 401"), { code: "SERVER_ERROR" })],
    ["a constraint the database refused", Object.assign(new Error("SQLITE_CONSTRAINT: UNIQUE constraint failed"), { code: "SQLITE_CONSTRAINT" })],
    ["a bug", new TypeError("Cannot read properties of undefined")],
    ["a string", "boom"],
    ["nothing", undefined],
  ])("false for %s", (_, error) => expect(isDatabaseUnavailable(error)).toBe(false));

  it("toFailure says why in the log, in the database's words and without credentials, once a minute (not a line a request)", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.useFakeTimers({ now: Date.now() + 3_600_000 });
    try {
      const noSchema = Object.assign(new Error("SQLITE_UNKNOWN: SQLite error: no such table: projects"), { code: "SQLITE_UNKNOWN" });
      for (let i = 0; i < 3; i++) expect(toFailure(noSchema).status).toBe(503);
      vi.advanceTimersByTime(61_000);
      expect(toFailure(new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED http://ana:pw-123@db:8080"), { code: "ECONNREFUSED" }) })).status).toBe(503);
      expect(logged.mock.calls.map(([line]) => line)).toEqual([
        "baton: answering 503, the database is unavailable: SQLITE_UNKNOWN: SQLite error: no such table: projects",
        expect.stringMatching(/^baton: answering 503, the database is unavailable: connect ECONNREFUSED http:\/\/db:8080$/),
      ]);
    } finally {
      vi.useRealTimers();
      logged.mockRestore();
    }
  });

  it("toFailure answers it with 503, database_unavailable and Retry-After", () => {
    const failure = toFailure(refused);
    expect(failure).toMatchObject({ status: 503, code: "database_unavailable" });
    expect(Number(failure.headers?.["retry-after"])).toBeGreaterThan(0);
  });
});

describe("an embedded file that is no database any more", () => {
  it("is an outage (503 with Retry-After), not a 500 per request", async () => {
    // A real libSQL client on a file overwritten with garbage, as a bad restore or a disk fault leaves it.
    const dir = mkdtempSync(path.join(tmpdir(), "baton-garbage-db-"));
    const file = path.join(dir, "baton.db");
    writeFileSync(file, Buffer.alloc(16_384, 0x5a));
    const client = createClient({ url: `file:${file}` });
    const error = await client.execute("SELECT count(*) FROM sqlite_schema").then(
      () => null,
      (e: unknown) => e,
    );
    client.close();
    rmSync(dir, { recursive: true, force: true });
    expect(error).toMatchObject({ code: expect.stringMatching(/^SQLITE_NOTADB/) });
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(toFailure(error)).toMatchObject({ status: 503, code: "database_unavailable", headers: { "retry-after": expect.any(String) } });
  });

  it.each(["SQLITE_READONLY", "SQLITE_READONLY_DBMOVED", "SQLITE_IOERR_WRITE", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_CORRUPT"])("%s too", (code) => {
    expect(isDatabaseUnavailable(Object.assign(new Error(`${code}: the file cannot be used`), { code }))).toBe(true);
  });
});

describe("a dashboard form when the database cannot be reached", () => {
  it("says so on the form (what was typed stays) rather than failing the page", async () => {
    // A real libSQL client, to a port nothing listens on.
    const client = createClient({ url: `http://127.0.0.1:${await freePort()}` });
    const error = await client.execute("SELECT 1").then(
      () => null,
      (e: unknown) => e,
    );
    client.close();
    expect(error).not.toBeNull();
    expect(formError(error)).toEqual({ ok: false, message: DATABASE_UNAVAILABLE_MESSAGE });
  });

  it("still throws anything else (a bug) for Next's error page", () => {
    const bug = new TypeError("Cannot read properties of undefined");
    expect(() => formError(bug)).toThrow(bug);
  });
});
