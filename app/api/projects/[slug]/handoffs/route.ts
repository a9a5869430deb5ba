import { parseBody } from "@/lib/api/parse-body";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { handoffListQuerySchema, handoffOutSchema } from "@/lib/handoffs/handoff-schemas";
import { listProjectHandoffs, writeHandoff } from "@/lib/handoffs/handoffs";
import { z } from "zod";

export const GET = guard<{ slug: string }>("read", async ({ request, db, principal, params }) => {
  const query = parseQuery(request, handoffListQuerySchema);
  const { items, nextCursor } = await listProjectHandoffs(db, principal, params.slug, query);
  return Response.json({ ok: true, items: z.array(handoffOutSchema).parse(items), nextCursor });
});

export const POST = guard<{ slug: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  const body = await parseBody(request, z.unknown(), maxBodyBytes);
  const { handoff, created } = await writeHandoff(db, principal, params.slug, body);
  return Response.json({ ok: true, handoff: handoffOutSchema.parse(handoff) }, { status: created ? 201 : 200 });
});
