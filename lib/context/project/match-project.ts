/**
 * Which project a session belongs to when the hook does not say: a git remote names a repository
 * however it is written (git@github.com:acme/web.git, https://github.com/acme/web, ssh://…), and a
 * working directory is matched on its trailing path segments (pattern "acme/web" fits
 * /home/ana/src/acme/web but not /home/ana/src/acme/web2).
 */
export function normaliseRemote(remote: string): string {
  let r = remote.trim().toLowerCase();
  r = r.replace(/^[a-z+]+:\/\//, "");
  r = r.replace(/^[^@/]+@/, "");
  r = r.replace(/^([^/:]+):(?!\d+\/)/, "$1/");
  r = r.replace(/^([^/:]+):\d+\//, "$1/");
  return r.replace(/\.git$/, "").replace(/\/+$/, "");
}

function segments(path: string): string[] {
  return path.replace(/\\/g, "/").split("/").filter(Boolean);
}

function cwdMatchLength(cwd: string, pattern: string): number {
  const c = segments(cwd);
  const p = segments(pattern);
  if (!p.length || p.length > c.length) return 0;
  const tail = c.slice(c.length - p.length);
  return tail.every((s, i) => s === p[i]) ? p.length : 0;
}

export type Matcher = { slug: string; kind: "cwd" | "remote"; pattern: string; joinedAt: number };

/** How specifically a matcher fits: a remote beats any directory, a longer directory suffix a shorter; 0: it does not fit. */
function fit(m: Matcher, hints: { cwd: string | null; remote: string | null }): number {
  if (m.kind === "remote") return hints.remote && normaliseRemote(m.pattern) === normaliseRemote(hints.remote) ? Number.MAX_SAFE_INTEGER : 0;
  return hints.cwd ? cwdMatchLength(hints.cwd, m.pattern) : 0;
}

/**
 * The slug whose matcher fits best, or null. Ties (two projects mapping the same remote, or the same
 * directory suffix) go to the project the user joined first: a project joined later cannot take over
 * sessions that already had a home.
 */
export function matchProject(matchers: Matcher[], hints: { cwd: string | null; remote: string | null }): string | null {
  let best: { slug: string; fit: number; joinedAt: number } | null = null;
  for (const m of matchers) {
    const f = fit(m, hints);
    if (f && (!best || f > best.fit || (f === best.fit && m.joinedAt < best.joinedAt))) best = { slug: m.slug, fit: f, joinedAt: m.joinedAt };
  }
  return best?.slug ?? null;
}

/** The directory's own name: the guess when a client sends none. */
export function directoryName(cwd: string): string | null {
  return segments(cwd).at(-1)?.toLowerCase() ?? null;
}
