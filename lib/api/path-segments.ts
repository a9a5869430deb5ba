/**
 * The decoded segments of a URL path, or null when a segment is not valid percent-encoded UTF-8
 * (`%ff`, a lone `%`, the overlong `%C0%AE`). Next.js fails on such a path with a bare 500 after the
 * proxy has run, so the proxy answers 400 for it first.
 */
export function decodePathSegments(pathname: string): string[] | null {
  const segments: string[] = [];
  for (const raw of pathname.split("/")) {
    if (!raw) continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return null;
    }
  }
  return segments;
}
