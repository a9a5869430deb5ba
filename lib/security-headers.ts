/**
 * The security headers of every answer, written once: next.config.ts sends them with everything Next.js
 * serves (API routes, static files), proxy.ts replaces the policy with a page's own for every path it
 * runs on (pages, their errors and 404s, the CLI downloads), and lib/api/guard-http-server.ts sends them
 * with the answers it gives before Next.js. Keys are lower case: Next.js merges the proxy's headers
 * over next.config.ts's by exact key, so "X-Frame-Options" beside "x-frame-options" would be sent twice.
 * No dependencies: next.config.ts loads this file outside the app's bundles.
 */

/**
 * For what is not a page (JSON, a script to download, a static file): it may load nothing and be
 * framed by nobody.
 */
export const NO_CONTENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Sent with every answer Baton serves over its own TLS (lib/api/guard-http-server.ts): a browser that
 * saw it goes to this host over HTTPS only for a year, so nobody on the network can strip TLS from
 * the next visit (a sign-in form over plain HTTP). Not includeSubDomains: Baton cannot know what else
 * runs under its domain. Behind a TLS-terminating proxy the proxy sends it (README: Caddyfile).
 */
export const STRICT_TRANSPORT_SECURITY = { "strict-transport-security": "max-age=31536000" };

/** The headers for an answer whose Content-Security-Policy is `policy`. */
export function securityHeaders(policy: string): Record<string, string> {
  return {
    "content-security-policy": policy,
    // Old browsers ignore frame-ancestors: a framed /settings/tokens could be clicked through (issue 21).
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    // Dashboard addresses name projects and tasks; a link out need not tell another site which.
    "referrer-policy": "same-origin",
  };
}

/**
 * A dashboard page's policy. Scripts run only with this request's nonce (Next.js puts it on its own
 * scripts and inline payloads; 'strict-dynamic' lets them load the chunks they import), so an injected
 * <script> or on* attribute never runs. Styles: the stylesheet and nonced <style> elements, plus style
 * attributes, which cannot carry a nonce and run no code (rendered markdown aligns table columns with
 * them: hast-util-to-jsx-runtime's tableCellAlignToStyle). No upgrade-insecure-requests: teams reach Baton over plain HTTP on their network, where it
 * would send every asset to an https:// that is not there. `next dev` evaluates code to rebuild error
 * stacks and injects styles without a nonce, so development alone allows both.
 */
export function pagePolicy(nonce: string, development = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** 128 random bits, base64: a fresh one for every page, so a nonce seen once is worth nothing. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}
