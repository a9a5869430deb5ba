import { sideClient } from "./side-db";
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

/**
 * Makes someone a member of `slug` the one way there is: its owner invites their email, they accept
 * (issue 21: nobody joins without saying yes).
 */
export async function joinProject(baseUrl: string, slug: string, tokens: { owner: string; member: string }, memberEmail: string, role: "owner" | "member" | "viewer") {
  const invited = await apiClient(baseUrl, tokens.owner)("POST", `/api/projects/${slug}/invitations`, { email: memberEmail, role });
  expect(invited.status, invited.text).toBe(202);
  const accepted = await apiClient(baseUrl, tokens.member)("POST", `/api/invites/${slug}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
}

/**
 * Bookkeeping, written about once a second after the requests it counts, refused or not (the server's
 * write-behind buffers): the rate-limit counts, the served-context log, what each session was served and
 * each user's context marks (last session, setup note shown). None is something a request stores.
 */
export const WRITE_BEHIND_TABLES = ["rate_limit_counts", "context_log", "session_served", "context_marks"] as const;

/** Counts rows of every table but the write-behind ones: a snapshot to compare before and after a refused write. */
export async function tableCounts(databaseUrl: string): Promise<Record<string, number>> {
  const db = sideClient(databaseUrl);
  const tables = await db.execute(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%' AND name NOT IN (${WRITE_BEHIND_TABLES.map((t) => `'${t}'`).join(", ")})`,
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
