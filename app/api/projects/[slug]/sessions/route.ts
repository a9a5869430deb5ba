import { parseBody } from "@/lib/api/parse-body";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { sessionListQuerySchema, sessionOutSchema } from "@/lib/sessions/session-schemas";
import { createSession, listSessions } from "@/lib/sessions/sessions";
import { z } from "zod";

export const GET = guard<{ slug: string }>("read", async ({ request, db, principal, params }) => {
  const query = parseQuery(request, sessionListQuerySchema);
  const { items, nextCursor } = await listSessions(db, principal, params.slug, query);
  return Response.json({ ok: true, items: z.array(sessionOutSchema).parse(items), nextCursor });
});

export const POST = guard<{ slug: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  const body = await parseBody(request, z.unknown(), maxBodyBytes);
  const session = await createSession(db, principal, params.slug, body);
  return Response.json({ ok: true, session: sessionOutSchema.parse(session) }, { status: 201 });
});
