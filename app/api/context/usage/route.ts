import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { getSessionLearnings, reportSessionUsage } from "@/lib/learnings/learning-usage";

/**
 * Used or not, and flags (issue 27), for the session-end worker: GET answers which learnings this
 * user's session was given (ids, text, files) and which of its project's learnings name files; POST
 * takes back the verdicts the worker decided on the developer's machine (ids, touched or not, how;
 * flags with their file and reason), never the transcript. Another user's session is a 404.
 */
export const GET = guard("read", async ({ request, db, principal }) => {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  return Response.json({ ok: true, ...(await getSessionLearnings(db, principal, query)) });
});

export const POST = guard("write", async ({ request, db, principal, maxBodyBytes }) => {
  const report = await parseBody(request, z.unknown(), maxBodyBytes);
  return Response.json({ ok: true, ...(await reportSessionUsage(db, principal, report)) });
});
