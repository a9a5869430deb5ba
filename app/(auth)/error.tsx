"use client";

import Link from "next/link";

/**
 * A sign-in, join, reset or setup page that failed while rendering (its database away, say): a page in
 * Baton's look, inside the auth card, rather than Next.js's bare error page. The server logged the
 * error; the digest lets an operator find it in the log.
 */
export default function AuthError({ error }: { error: Error & { digest?: string } }) {
  const reference = error.digest ? ` (reference ${error.digest})` : "";
  return (
    <div className="stack-sm" role="alert">
      <h1>Not available right now</h1>
      <p>This page could not be shown{reference}. Baton may be restarting or its database out of reach: try again in a moment.</p>
      <p>
        <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
          Try again
        </button>{" "}
        <Link href="/sign-in">Sign in</Link>
      </p>
    </div>
  );
}
