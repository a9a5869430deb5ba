import type { Principal } from "../auth/principal";
import { buildContext, type BuiltContext } from "../context/pack/build-context";
import { contextQuerySchema, type ContextQuery } from "../context/context-query";
import { gatherContext } from "../context/gather/gather-context";
import { countTokensByLine } from "../context/pack/tokenizer";
import type { Db } from "../db/client";

export type ContextPreview = { query: ContextQuery; built: BuiltContext; project: { slug: string; name: string } | null };

/**
 * The context an agent would receive for these parameters, built by the same two steps as
 * GET /api/context (gather, then build with the real tokenizer) but without its bookkeeping: a preview
 * is not a context served, so it neither shows up in the "context served" chart nor marks learnings as
 * sent. Reads only.
 */
export async function previewContext(
  db: Db,
  principal: Principal,
  input: Record<string, string | undefined>,
  env: { dashboardUrl: string; now?: Date },
): Promise<ContextPreview> {
  const query = contextQuerySchema.parse({ ...input, format: "json" });
  const { data, project } = await gatherContext(db, principal, query, { now: env.now ?? new Date(), dashboardUrl: env.dashboardUrl });
  const built = buildContext(data, { budget: query.budget, maxChars: query.maxChars, mode: query.mode, source: query.source }, countTokensByLine);
  return { query, built, project: project ? { slug: project.slug, name: project.name } : null };
}
