import { createClient } from "@libsql/client";
import { expect } from "vitest";
import { apiClient } from "./api";
import { runCli } from "./cli";

/** Creates a user with the real admin CLI and returns a token of the given scope. */
export async function createUserWithToken(
  databaseUrl: string,
  email: string,
  options: { scope?: "read" | "write"; projects?: string[]; existing?: boolean } = {},
): Promise<string> {
  const env = { DATABASE_URL: databaseUrl };
  if (!options.existing) {
    const user = await runCli(["admin", "create-user", "--email", email, "--password", "long enough pass"], { env });
    expect(user.code, user.stderr).toBe(0);
  }
  const args = ["admin", "create-token", "--email", email, "--name", `${email} ${options.scope ?? "write"}`, "--scope", options.scope ?? "write"];
  for (const p of options.projects ?? []) args.push("--project", p);
  const token = await runCli(args, { env });
  expect(token.code, token.stderr).toBe(0);
  return token.stdout.trim();
}

/** Makes `member` a member of `slug` with a role, straight in the database (membership routes come later). */
export async function addMember(databaseUrl: string, slug: string, memberEmail: string, role: "owner" | "member" | "viewer") {
  const db = createClient({ url: databaseUrl });
  await db.execute({
    sql: `INSERT INTO project_members (project_id, user_id, role, created_at)
          SELECT p.id, u.id, ?, 0 FROM projects p, users u WHERE p.slug = ? AND u.email = ?`,
    args: [role, slug, memberEmail],
  });
  db.close();
}

/** Counts rows of every table: a snapshot to compare before and after a refused write. */
export async function tableCounts(databaseUrl: string): Promise<Record<string, number>> {
  const db = createClient({ url: databaseUrl });
  // Bookkeeping, written about once a second after the requests it counts, refused or not: the
  // rate-limit counts, the served-context log and what each session was served are not something a request stores.
  const tables = await db.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%' AND name NOT IN ('rate_limit_counts', 'context_log', 'session_served')",
  );
  const counts: Record<string, number> = {};
  for (const row of tables.rows) {
    const name = String(row.name);
    counts[name] = Number((await db.execute(`SELECT count(*) AS n FROM "${name}"`)).rows[0]!.n);
  }
  db.close();
  return counts;
}

export async function createProject(baseUrl: string, token: string, slug: string) {
  const res = await apiClient(baseUrl, token)("POST", "/api/projects", { slug, name: slug.toUpperCase() });
  expect(res.status, res.text).toBe(201);
}
