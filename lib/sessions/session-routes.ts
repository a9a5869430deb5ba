import "server-only";
import { guard } from "../auth/guard";
import type { Db } from "../db/client";
import type { Principal } from "../auth/principal";
import type { SessionDocView } from "../db/queries/sessions";
import { claimSession } from "./claim-session";
import { completeSession, releaseSession } from "./finish-session";
import { sessionOutSchema } from "./session-schemas";
import { getSession, type SessionRef } from "./sessions";

const ACTIONS = {
  read: { need: "read", run: getSession },
  claim: { need: "write", run: claimSession },
  complete: { need: "write", run: completeSession },
  release: { need: "write", run: releaseSession },
} as const satisfies Record<string, { need: "read" | "write"; run: (db: Db, principal: Principal, ref: SessionRef) => Promise<SessionDocView> }>;

/**
 * The handler of one document's route, written once for both addresses: under its project
 * (`/api/projects/{slug}/sessions/{id}/…`) and by id alone (`/api/sessions/{id}/…`, which holds while
 * the id is unambiguous among the caller's projects; requireSession decides).
 */
export function sessionRoute(action: keyof typeof ACTIONS) {
  const { need, run } = ACTIONS[action];
  return guard<{ slug?: string; id: string }>(need, async ({ db, principal, params }) => {
    const session = await run(db, principal, { project: params.slug, id: params.id });
    return Response.json({ ok: true, session: sessionOutSchema.parse(session) });
  });
}
