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

export type Matcher = { slug: string; kind: "cwd" | "remote"; pattern: string };

/** The slug whose matcher fits best (a remote beats a directory; a longer directory match beats a shorter), or null. */
export function matchProject(matchers: Matcher[], hints: { cwd: string | null; remote: string | null }): string | null {
  if (hints.remote) {
    const remote = normaliseRemote(hints.remote);
    const hit = matchers.find((m) => m.kind === "remote" && normaliseRemote(m.pattern) === remote);
    if (hit) return hit.slug;
  }
  if (hints.cwd) {
    let best: { slug: string; length: number } | null = null;
    for (const m of matchers) {
      if (m.kind !== "cwd") continue;
      const length = cwdMatchLength(hints.cwd, m.pattern);
      if (length && (!best || length > best.length)) best = { slug: m.slug, length };
    }
    if (best) return best.slug;
  }
  return null;
}

/** The directory's own name, the last resort the CLI also uses. */
export function directoryName(cwd: string): string | null {
  return segments(cwd).at(-1)?.toLowerCase() ?? null;
}
