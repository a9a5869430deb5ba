import { createClient, type Client } from "@libsql/client";
import { LEARNING_KINDS } from "../lib/rules";
import { runCli } from "../test/support/cli";
import { randomGenerator } from "./random";
import { zipfWord } from "./zipf-words";

export { randomGenerator } from "./random";

/** A learning's sentence: 8 to 21 words drawn by Zipf's law over bench/zipf-words.ts's vocabulary. */
export function sentence(rand: () => number): string {
  const n = 8 + Math.floor(rand() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(zipfWord(rand));
  return words.join(" ").replace(/^./, (c) => c.toUpperCase()) + ".";
}

/** One to three tags, drawn like the words. */
const tagsOf = (rand: () => number) => JSON.stringify([...new Set(Array.from({ length: 1 + Math.floor(rand() * 3) }, () => zipfWord(rand).toLowerCase()))]);

/**
 * A store as bench/context-speed.ts and bench/shapes.ts load it: one user (with a seed) owning project
 * "web" with a handoff, and `size` learnings (60% of the project's, 80% confirmed) spread over 180 days,
 * their words and tags spread as in real text (bench/zipf-words.ts).
 * Made with the real admin CLI and SQL on the database `env.DATABASE_URL` names; returns a write token.
 */
export async function seedStore(env: Record<string, string>, size: number): Promise<string> {
  const databaseUrl = env.DATABASE_URL!;
  const user = await runCli(["admin", "create-user", "--email", "bench@example.com", "--password", "bench password"], { env });
  if (user.code !== 0) throw new Error(user.stderr);
  const db: Client = createClient({ url: databaseUrl });
  const userId = String((await db.execute("SELECT id FROM users")).rows[0]!.id);
  await db.batch(
    [
      { sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p-web', 'web', 'Web', ?, 0, 0)", args: [userId] },
      { sql: "INSERT INTO project_members (project_id, user_id, role, created_at) VALUES ('p-web', ?, 'owner', 0)", args: [userId] },
      {
        sql: "INSERT INTO seeds (user_id, version, identity, state, extra, created_at, updated_at) VALUES (?, '1.0.0', ?, '{}', '{}', 0, 0)",
        args: [userId, JSON.stringify({ aiName: "Ivy", principalName: "Bench", preferences: { responseStyle: "concise" } })],
      },
      {
        sql: "INSERT INTO handoffs (id, project_id, user_id, author, markdown, session_id, branch, created_at) VALUES ('h1', 'p-web', ?, 'bench', ?, 's1', 'main', ?)",
        args: [userId, "## Done\n- token refresh race fixed\n## Next\n- migrate sessions table\n", Date.now() - 3_600_000],
      },
    ],
    "write",
  );
  const rand = randomGenerator(size);
  const start = Date.now() - 180 * 86_400_000;
  for (let done = 0; done < size; done += 5000) {
    const batch = [];
    for (let i = done; i < Math.min(size, done + 5000); i++) {
      const at = start + Math.floor((i / size) * 180 * 86_400_000);
      batch.push({
        sql: `INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, 'bench', ?, ?, ?, ?)`,
        args: [`l${i}`, userId, rand() < 0.6 ? "p-web" : null, LEARNING_KINDS[i % LEARNING_KINDS.length]!, sentence(rand), rand() < 0.8 ? 1 : 0, tagsOf(rand), at, at],
      });
    }
    await db.batch(batch, "write");
  }
  db.close();
  const token = await runCli(["admin", "create-token", "--email", "bench@example.com", "--name", "bench"], { env });
  if (token.code !== 0) throw new Error(token.stderr);
  return token.stdout.trim();
}

