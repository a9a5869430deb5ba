import type { EvidenceEntry } from "./queue-types";

const SPEAKER: Record<EvidenceEntry["who"], string> = { user: "user", assistant: "agent", tool: "tool" };

/**
 * The session lines a proposal came from, under it: who said each, when, and the words quoted. Open by
 * default, so the reviewer judges the proposal by what was said; rendered as text (React escapes it),
 * never as HTML or markdown, since a transcript may hold anything.
 */
export function ProposalEvidence({ evidence }: { evidence: EvidenceEntry[] }) {
  if (!evidence.length) return null;
  return (
    <details className="proposal-evidence" open>
      <summary>
        Evidence ({evidence.length} {evidence.length === 1 ? "line" : "lines"})
      </summary>
      <ol className="evidence-lines">
        {evidence.map((line, i) => (
          <li key={i} className={`evidence-line evidence-${line.who}`}>
            <span className="evidence-who">{SPEAKER[line.who]}</span>
            <span className="evidence-when">
              turn {line.turn}
              {line.time && line.at ? (
                <>
                  {", "}
                  <time dateTime={line.at}>{line.time}</time>
                </>
              ) : null}
            </span>
            <q className="evidence-text" dir="auto">
              {line.text}
            </q>
          </li>
        ))}
      </ol>
    </details>
  );
}
