import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

/** Any address no page answers: said plainly, with the way back. */
export default function NotFound() {
  return (
    <main className="auth-shell">
      <div className="auth-card not-found">
        <p className="brand">
          <span className="brand-mark" aria-hidden>
            ◆
          </span>{" "}
          Baton
        </p>
        <p className="not-found-code" aria-hidden>
          404
        </p>
        <h1>Page not found</h1>
        <p className="muted">Nothing lives at this address. It may have moved, or the link may be mistyped.</p>
        <p className="row-actions">
          <Link href="/" className="btn btn-primary">
            Back to your projects
          </Link>
          <Link href="/proposals" className="btn btn-secondary">
            Review proposals
          </Link>
        </p>
      </div>
    </main>
  );
}
