import { producedByLabel, type ProducedBy } from "@/lib/agents/produced-by";
import { relativeTime } from "@/lib/context/pack/relative-time";
import { Markdown, type MarkdownBudget } from "../markdown/markdown";

export type HandoffView = ProducedBy & { id: string; author: string; signedAs?: string | null; branch: string | null; sessionId: string | null; createdAt: Date; markdown: string };

/** One handoff: who left it, on which branch, when, and what it says (`budget`: its page's, markdownBudget). */
export function HandoffEntry({ handoff, now, budget, clamp = false }: { handoff: HandoffView; now: Date; budget: MarkdownBudget; clamp?: boolean }) {
  const h = handoff;
  const agent = producedByLabel(h);
  return (
    <article className="handoff" aria-label={`Handoff by ${h.author}, ${relativeTime(h.createdAt, now)}`} data-testid="handoff">
      <header className="meta handoff-meta">
        <strong className="handoff-author">{h.author}</strong>
        {/* The name the writing client gave, kept beside the author (the token's user), never instead of it. */}
        {h.signedAs ? <span className="handoff-signed-as">signed as {h.signedAs}</span> : null}
        {agent ? (
          <span className="handoff-agent" title="The coding agent (and model) that wrote it, as its hook said">
            {agent}
          </span>
        ) : null}
        <span>
          branch <code>{h.branch ?? "none"}</code>
        </span>
        <time dateTime={h.createdAt.toISOString()} title={h.createdAt.toISOString()}>
          {relativeTime(h.createdAt, now)} · {h.createdAt.toISOString().replace("T", " ").slice(0, 16)} UTC
        </time>
        {h.sessionId ? (
          <span>
            session <code>{h.sessionId}</code>
          </span>
        ) : null}
      </header>
      <div className={clamp ? "handoff-body clamp" : "handoff-body"}>
        <Markdown budget={budget}>{h.markdown}</Markdown>
      </div>
    </article>
  );
}
