/**
 * The dashboard's answer to a request it cannot read (a URL with a bad percent-encoding, a form body
 * or a server action's JSON arguments that do not parse): a page in Baton's look with status 400. The proxy answers it before Next.js,
 * which would fail on either with a bare 500;
 * the proxy cannot render React or know the built stylesheet's name, so the page carries its own few
 * styles, drawn from the design tokens in app/globals.css.
 */
const STYLE = `
:root { --bg: #f7f7f5; --surface: #fff; --text: #1c1d1f; --muted: #5f6368; --border: #e2e2dd; --accent: #3b5bdb; color-scheme: light dark; }
@media (prefers-color-scheme: dark) { :root { --bg: #141517; --surface: #1c1d20; --text: #e9ecef; --muted: #a0a4a8; --border: #2e3034; --accent: #748ffc; } }
html, body { margin: 0; }
body { background: var(--bg); color: var(--text); font: 15px/1.5 ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { min-height: 100vh; display: grid; place-items: center; padding: 1rem; box-sizing: border-box; }
.card { width: min(420px, 100%); background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: 2rem; }
.brand { font-weight: 700; font-size: 1.1rem; margin: 0; }
.brand span { color: var(--accent); }
h1 { font-size: 1.5rem; margin: 1rem 0 0.25rem; }
p { color: var(--muted); }
a { color: var(--accent); }`;

const page = (title: string, reason: string, nonce: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Baton</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main><div class="card">
<p class="brand"><span aria-hidden="true">◆</span> Baton</p>
<h1>${title}</h1>
<p>${reason}</p>
</div></main></body></html>
`;

/** Why the request was refused, as whole sentences of plain text (no markup; the page adds the way back). */
export type BadRequestReason =
  | "This address cannot be read: part of it is not valid percent-encoded text."
  | "The form sent with this request cannot be read."
  | "The data sent with this action cannot be read.";

/** A form another site posted here (a server action from a foreign Origin): refused with 403. */
export const FOREIGN_FORM = "This form was sent from another site, so it was not carried out.";

const html = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers } });

/** `nonce` is the one in the answer's Content-Security-Policy, which admits the page's own styles. */
export function badRequestPage(reason: BadRequestReason | typeof FOREIGN_FORM, nonce: string): Response {
  const [status, title] = reason === FOREIGN_FORM ? [403, "Forbidden"] : [400, "Bad request"];
  return html(page(title, `${reason} Check the link, or go back to <a href="/">your projects</a>.`, nonce), status);
}

/** Any page while the database is out of reach (lib/db/outage.ts): 503 with Retry-After, as the API answers. */
export function unavailablePage(nonce: string, retryAfterSeconds: number): Response {
  const reason = `Baton cannot reach its database right now (it may be restarting). This page will work again once it is back: <a href="">try again</a> in a moment.`;
  return html(page("Not available right now", reason, nonce), 503, { "retry-after": String(retryAfterSeconds) });
}
