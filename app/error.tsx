"use client";

import Link from "next/link";

/**
 * A page that failed outside the dashboard's own boundary: the dashboard's layout (it reads the signed-in
 * user) and the sign-in, setup, join and reset pages. Their usual cause is the database out of reach
 * (Baton restarting, a libSQL server down): a page in Baton's look that says so, instead of Next.js's bare
 * error page. The server logged the error; the digest lets an operator find it in the log.
 */
export default function RootError({ error }: { error: Error & { digest?: string } }) {
  const reference = error.digest ? ` (reference ${error.digest})` : "";
  return (
    <main className="auth-shell">
      <div className="auth-card" role="alert">
        <p className="brand">
          <span className="brand-mark" aria-hidden>
            ◆
          </span>{" "}
          Baton
        </p>
        <h1>Not available right now</h1>
        <p className="muted">
          This page could not be shown{reference}. Baton may be restarting, or its database may be out of reach: try again in a moment.
        </p>
        <p className="row-actions">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Try again
          </button>
          <Link href="/" className="btn btn-secondary">
            Back to your projects
          </Link>
        </p>
      </div>
    </main>
  );
}
