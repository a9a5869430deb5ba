import { producedByLabel } from "../agents/produced-by";
import type { LearningRow } from "../db/queries/learnings";
import { utcDay } from "../context/pack/relative-time";
import { NOT_A_SESSION, type AgentName, type LearningOrigin } from "../rules";

/**
 * Where a learning came from (issue 27): who proposed it, with which agent and model, in which
 * session, and who accepted or last changed it — one shape for the API, MCP and the dashboard.
 */
export type Provenance = {
  origin: LearningOrigin;
  /** Its writer: the proposer of an accepted proposal, else who typed or imported it (null: account gone). */
  by: string | null;
  agent: AgentName | null;
  model: string | null;
  /** The session it was proposed in (or, typed or imported, where its writer said it came from), when its source names one. */
  session: string | null;
  proposalId: string | null;
  acceptedBy: string | null;
  acceptedAt: Date | null;
  editedBy: string | null;
  editedAt: Date | null;
};

/** Sources that name how something arrived rather than a session (the defaults of each entry point). */
export function provenanceOf(l: LearningRow): Provenance {
  return {
    origin: l.origin,
    by: l.author,
    agent: l.agent,
    model: l.model,
    session: NOT_A_SESSION.has(l.source) ? null : l.source,
    proposalId: l.proposalId,
    acceptedBy: l.acceptedByName,
    acceptedAt: l.acceptedAt,
    editedBy: l.editedByName,
    editedAt: l.editedAt,
  };
}

const person = (name: string | null) => name ?? "a former member";

/**
 * The provenance in one line, as the dashboard and search_learnings show it: "proposed by bo (Claude
 * Code · opus) in session 1a2b3c4d, accepted by ann on 2026-11-20, edited by ann on 2026-11-21".
 * Names come from people, so a caller that hands this to an agent defuses the line (lib/context/pack/fence.ts).
 */
export function provenanceText(p: Provenance): string {
  const verb = p.origin === "proposal" ? "proposed" : p.origin === "import" ? "imported" : "written";
  const with_ = producedByLabel(p);
  const parts = [
    `${verb} by ${person(p.by)}${with_ ? ` (${with_})` : ""}${p.session ? (p.origin === "proposal" ? ` in session ${p.session}` : ` from ${p.session}`) : ""}`,
    p.acceptedAt ? `accepted by ${person(p.acceptedBy)} on ${utcDay(p.acceptedAt)}` : null,
    p.editedAt ? `edited by ${person(p.editedBy)} on ${utcDay(p.editedAt)}` : null,
  ];
  return parts.filter(Boolean).join(", ");
}
