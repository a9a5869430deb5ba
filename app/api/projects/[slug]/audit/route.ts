import { parseQuery } from "@/lib/api/parse-query";
import { auditEntryOutSchema, auditQuerySchema, listProjectAudit } from "@/lib/audit/project-audit";
import { guard } from "@/lib/auth/guard";
import { z } from "zod";

export const GET = guard<{ slug: string }>("read", async ({ request, db, principal, params }) => {
  const query = parseQuery(request, auditQuerySchema);
  const { items, nextCursor } = await listProjectAudit(db, principal, params.slug, query);
  return Response.json({ ok: true, items: z.array(auditEntryOutSchema).parse(items), nextCursor });
});
