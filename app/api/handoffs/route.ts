import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { handoffOutSchema } from "@/lib/handoffs/handoff-schemas";
import { writeSessionHandoff } from "@/lib/handoffs/handoffs";
import { z } from "zod";

/**
 * A hook's handoff (`{ markdown, sessionId?, branch?, project?, guess?, cwd?, remote? }`): the server
 * files it under the session's project. A session in no project of the user's stores nothing and
 * answers `handoff: null` (200), so a spooled handoff is not retried for ever.
 */
export const POST = guard("write", async ({ request, db, principal, maxBodyBytes }) => {
  const body = await parseBody(request, z.unknown(), maxBodyBytes);
  const written = await writeSessionHandoff(db, principal, body);
  if (!written) return Response.json({ ok: true, handoff: null });
  return Response.json({ ok: true, handoff: handoffOutSchema.parse(written.handoff) }, { status: written.created ? 201 : 200 });
});
