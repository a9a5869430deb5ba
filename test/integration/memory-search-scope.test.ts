import { createClient, type Client, type InStatement } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import * as schema from "@/lib/db/schema";
import { START_TAG_WEIGHT } from "@/lib/context/hints/tag-feedback";
import type { LearningIndex } from "@/lib/context/search/learning-index";
import { ROOT, tempDir } from "../support/server";
import { readableStores } from "../support/readable-store";

/**
 * A reader's search in memory is a function of what the reader may read: learnings others write where
 * the reader may not read them (their personal ones, a project the reader is not in) move no score, no
 * word's count, no choice of words and no window, however many of the reader's words they hold.
 */

const VOCABULARY = "token refresh deploy ledger webhook cursor schema retry cache queue staging cron migrate invoice vault canary snake_case café".split(" ");
const tmp = tempDir("baton-memory-scope-");
/** A choice of words that keeps common ones too (a small store's words are all common). */
const WIDE = { maxShare: 0.6, minCutoff: 5, maxMatches: 300 };
/** u1 reads p1; u2 reads p1 and p2, which u1 is not in. */
const MEMBERS = { u1: ["p1"], u2: ["p1", "p2"] };
let client: Client;
let store: ReturnType<typeof readableStores>;
let s = 5;
const rand = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
const text = () => Array.from({ length: 2 + Math.floor(rand() * 10) }, () => VOCABULARY[Math.floor(VOCABULARY.length * rand() ** 2)]).join(" ");
const learning = (id: string, owner: string, project: string | null, content: string): InStatement => ({
  sql: "INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, pinned, created_at, updated_at) VALUES (?, ?, ?, 'pattern', ?, 'test', 1, ?, ?, ?, ?)",
  args: [id, owner, project, content, rand() < 0.5 ? text() : "", rand() < 0.05 ? 1 : 0, 1000, 1000],
});

beforeAll(async () => {
  client = createClient({ url: `file:${tmp.dir}/scope.db` });
  await migrate(client, `${ROOT}/drizzle`);
  store = readableStores(client, drizzle(client, { schema }) as unknown as Db, tmp.dir, MEMBERS);
  const stmts: InStatement[] = ["u1", "u2", "u3"].map((id) => ({ sql: "INSERT INTO users (id, name, email, created_at, updated_at) VALUES (?, ?, ?, 0, 0)", args: [id, id, `${id}@example.com`] }));
  stmts.push({ sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p1', 'web', 'Web', 'u1', 0, 0), ('p2', 'api', 'Api', 'u2', 0, 0)", args: [] });
  for (const [user, projects] of Object.entries(MEMBERS)) for (const p of projects) stmts.push({ sql: "INSERT INTO project_members (project_id, user_id, role, created_at) VALUES (?, ?, 'member', 0)", args: [p, user] });
  for (let i = 0; i < 300; i++) stmts.push(learning(`l${i}`, ["u1", "u2"][i % 2]!, rand() < 0.6 ? "p1" : null, text()));
  await client.batch(stmts, "write");
});

afterAll(() => {
  store?.close();
  client?.close();
  tmp.remove();
});

describe("a reader's search in memory", () => {
  it("moves no score, count, choice or window of the reader's when others write where the reader may not read", async () => {
    // (u2 is in p2: what is written there is u2's to read, and moves u2's statistics, as the next test shows.)
    const hints = fc.sample(fc.uniqueArray(fc.constantFrom(...VOCABULARY, "absent"), { minLength: 1, maxLength: 8 }), { numRuns: 60, seed: 28 });
    const readers = [{ userId: "u1", projectId: "p1" }, { userId: "u1", projectId: null }];
    const answer = (index: LearningIndex) =>
      readers.flatMap((reader) =>
        hints.map((words) => {
          const found = store.inMemory(index, { ...reader, limit: 30, tagWeight: START_TAG_WEIGHT, terms: words.map((t) => [t, null]), knownAt: null, selection: WIDE, scores: true });
          return { ...found, scores: [...(found.scores as Iterable<readonly [number, number]>)].sort((a, b) => a[0] - b[0]), counted: [...found.counted] };
        }),
      );
    const before = answer((await store.current()).index);
    expect(before.filter((a) => a.candidates.length).length).toBeGreaterThan(hints.length);
    // u3 writes their own and in p2, u2 in p2 (which u1 is not in), every one full of the reader's words.
    const words = VOCABULARY.join(" ");
    const others = Array.from({ length: 400 }, (_, i) => learning(`others-${i}`, i % 2 ? "u2" : "u3", i % 2 || i % 4 === 0 ? "p2" : null, `${words} ${VOCABULARY[i % VOCABULARY.length]}`));
    await client.batch(others, "write");
    const after = answer((await store.current()).index);
    expect(after).toEqual(before);
  });
});
