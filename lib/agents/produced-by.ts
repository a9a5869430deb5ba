import { AGENT_LABELS, type AgentName } from "../rules";

/** What a handoff or proposal records about the agent that produced it (null: the client did not say). */
export type ProducedBy = { agent: AgentName | null; model: string | null };

/**
 * The agent as people read it beside an author: its label, then its model when known ("Codex CLI ·
 * gpt-5.1"); null when neither is known, so nothing is shown rather than a guess.
 */
export function producedByLabel({ agent, model }: ProducedBy): string | null {
  const parts = [agent ? AGENT_LABELS[agent] : null, model].filter((part): part is string => Boolean(part));
  return parts.length ? parts.join(" · ") : null;
}
