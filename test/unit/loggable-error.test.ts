import { createClient } from "@libsql/client";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/libsql";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { loggable, withoutSecrets } from "@/lib/process/loggable-error";

// What the server log keeps of a failed query: the statement and why, never the values it carried.

describe("an error as the log keeps it", () => {
  it("a failed query's parameters (a session token) are left out; the statement and the cause stay", async () => {
    const client = createClient({ url: ":memory:" });
    const db = drizzle(client);
    await db.run(sql`CREATE TABLE auth_sessions (token TEXT PRIMARY KEY)`);
    const token = "isOuZboXBw9obnZtASAqK77i3lihafD4";
    await db.run(sql`INSERT INTO auth_sessions VALUES (${token})`);
    const error = await db.run(sql`INSERT INTO auth_sessions VALUES (${token})`).then(
      () => null,
      (e: unknown) => e,
    );
    client.close();
    expect(inspect(error)).toContain(token); // what drizzle throws holds it
    const logged = inspect(loggable(error));
    expect(logged).not.toContain(token);
    expect(logged).toContain("INSERT INTO auth_sessions");
    expect(logged).toContain("UNIQUE constraint failed");
  });

  it("a URL's credentials are left out; anything else is the same value", () => {
    expect(withoutSecrets("cannot construct http://user:pw@127.0.0.1:3413/v2/pipeline")).toBe("cannot construct http://127.0.0.1:3413/v2/pipeline");
    expect(withoutSecrets("libsql://db.example?authToken=abc.def")).not.toContain("abc.def");
    // Said once already (a message that named the database without them): the same text again.
    const once = "cannot reach the database at http://127.0.0.1:8080?authToken=…: connect ECONNREFUSED";
    expect(withoutSecrets(once)).toBe(once);
    const plain = new Error("no such table: learnings");
    expect(loggable(plain)).toBe(plain);
    expect(loggable("at http://a:b@host/")).toBe("at http://host/");
    expect(loggable(undefined)).toBeUndefined();
  });
});
