/**
 * Where a browser may be sent back to after signing in (`next`): the address resolved against this
 * server's own origin the way the browser will resolve it (the WHATWG URL parser: `\` is `/`, tabs and
 * newlines vanish, `//host` is another host), kept only when it stays on that origin, and then given
 * back as a path, query and fragment; anything else is "/". The one check of every `next` honoured.
 */
export function sameOriginPath(next: string | null | undefined, origin: string): string {
  if (!next) return "/";
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(next, base);
  } catch {
    return "/";
  }
  if (base.origin === "null" || url.origin !== base.origin) return "/";
  // "/.//evil.example" resolves to the path "//evil.example", which a browser reads as a host again.
  return `/${url.pathname.replace(/^\/+/, "")}${url.search}${url.hash}`;
}
