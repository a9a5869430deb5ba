import type { SessionDocView } from "@/lib/db/queries/sessions";
import { relativeTime } from "@/lib/context/pack/relative-time";
import { SESSION_PRIORITIES } from "@/lib/rules";
import { Markdown, type MarkdownBudget } from "../markdown/markdown";

/** A named priority's number back to its name; other numbers are shown as they are. */
const priorityNames: Record<number, string> = Object.fromEntries(Object.entries(SESSION_PRIORITIES).map(([name, value]) => [value, name]));

/** The document's own title: its first heading, else its id. */
function titleOf(s: SessionDocView): string {
  const body = s.markdown.replace(/^---\n[\s\S]*?\n---\n?/, "");
  return body.match(/^#{1,3}\s+(.+)$/m)?.[1]?.trim() ?? s.id;
}

function stamp(date: Date, now: Date) {
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {relativeTime(date, now)}
    </time>
  );
}

/**
 * A queued session document on the board: who has it since when, and the files an agent will be handed.
 * `children`: the buttons the viewer may use on it (see SessionActions).
 */
export function SessionCard({ session: s, now, budget, children }: { session: SessionDocView; now: Date; budget: MarkdownBudget; children?: React.ReactNode }) {
  const paths = [...s.specs.map((p) => ({ p, kind: "spec" })), ...s.files.map((p) => ({ p, kind: "file" }))];
  return (
    <article className="card session-card" aria-label={`Session ${s.id}`} data-testid="session">
      <h3 className="session-title">{titleOf(s)}</h3>
      <p className="meta">
        <code>{s.id}</code>
        <span>priority {priorityNames[s.priority] ?? s.priority}</span>
        {s.branch ? (
          <span>
            branch <code>{s.branch}</code>
          </span>
        ) : null}
        {s.tags.length ? <span>tags: {s.tags.join(", ")}</span> : null}
        <span>queued {stamp(s.createdAt, now)}</span>
      </p>
      {s.claimedBy && s.claimedAt ? (
        <p className="session-claim">
          Claimed by <strong>{s.claimedBy.name}</strong> <span className="muted">({s.claimedBy.email})</span> {stamp(s.claimedAt, now)}
          {s.completedAt ? <> · done {stamp(s.completedAt, now)}</> : null}
        </p>
      ) : null}
      {paths.length ? (
        <ul className="file-list" aria-label="Files it lists">
          {paths.map(({ p, kind }) => (
            <li key={`${kind}:${p}`}>
              <span className="muted">{kind}</span> <code>{p}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">Lists no files.</p>
      )}
      <details className="disclosure">
        <summary>Document</summary>
        <Markdown budget={budget}>{s.markdown.replace(/^---\n[\s\S]*?\n---\n?/, "")}</Markdown>
      </details>
      {children}
    </article>
  );
}
