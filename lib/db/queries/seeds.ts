import { eq } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { seeds, type Seed } from "../schema";

export async function findSeed(db: DbOrTx, params: { userId: string }): Promise<Seed | undefined> {
  const [row] = await db.select().from(seeds).where(eq(seeds.userId, params.userId));
  return row;
}

export async function upsertSeed(
  db: DbOrTx,
  params: { userId: string; version: string; identity: Record<string, unknown>; state: Record<string, unknown>; extra: Record<string, unknown> },
): Promise<void> {
  const { userId, ...data } = params;
  await db
    .insert(seeds)
    .values({ userId, ...data })
    .onConflictDoUpdate({ target: seeds.userId, set: { ...data, updatedAt: new Date() } });
}
