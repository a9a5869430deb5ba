import { CopyButton } from "../ui/copy-button";

/**
 * A file or command to paste, with where it goes (a file) or that it runs in a terminal (no `where`),
 * and a copy button.
 */
export function Snippet({ id, title, where, text, children }: { id: string; title: string; where?: string; text: string; children?: React.ReactNode }) {
  return (
    <section className="card stack-sm" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <CopyButton text={text} label={`Copy ${where ?? title}`} />
      </div>
      <p className="muted">
        {where ? (
          <>
            Goes in <code>{where}</code>.
          </>
        ) : (
          "Run in a terminal."
        )}{" "}
        {children}
      </p>
      <pre className="block" data-testid={`snippet-${id}`}>
        {text}
      </pre>
    </section>
  );
}
