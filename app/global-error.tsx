"use client";

/**
 * The last resort, when the root layout itself fails: it replaces the whole document, so it brings its
 * own <html> and <body> (and the stylesheet the root layout would have loaded is not there).
 */
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  const reference = error.digest ? ` (reference ${error.digest})` : "";
  return (
    <html lang="en">
      <body>
        <h1>Baton is not available right now</h1>
        <p>
          This page could not be shown{reference}. Baton may be restarting, or its database may be out of reach: try again in a moment.
        </p>
      </body>
    </html>
  );
}
