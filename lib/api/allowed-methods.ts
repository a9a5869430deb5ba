import routes from "./api-routes.json";

/** A route of app/api as scripts/api-routes.mjs found it: its URL pattern and the methods it exports. */
type ApiRoute = { pattern: string; methods: string[] };

type Segment = { kind: "static"; value: string } | { kind: "dynamic" } | { kind: "catch-all" };

// Next.js prefers, segment by segment, a static name over a [param] over a [...rest]; so do we.
const RANK = { static: 2, dynamic: 1, "catch-all": 0 } as const;

const compiled = (routes as ApiRoute[]).map((route) => ({
  route,
  segments: route.pattern
    .split("/")
    .filter(Boolean)
    .map((seg): Segment => (seg.startsWith("[...") ? { kind: "catch-all" } : seg.startsWith("[") ? { kind: "dynamic" } : { kind: "static", value: seg })),
}));

/** The rank of each segment when the route matches the path's segments, or null. */
function matchRanks(segments: Segment[], path: string[]): number[] | null {
  const ranks: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.kind === "catch-all") return path.length > i ? [...ranks, RANK["catch-all"]] : null;
    const part = path[i];
    if (part === undefined || (seg.kind === "static" && seg.value !== part)) return null;
    ranks.push(RANK[seg.kind]);
  }
  return path.length === segments.length ? ranks : null;
}

function moreSpecific(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? -1) - (b[i] ?? -1);
    if (diff !== 0) return diff > 0;
  }
  return false;
}

/**
 * The methods the route serving a path (its decoded segments) answers, as Next.js would: those its
 * route.ts exports, HEAD with GET, and OPTIONS always; null when no API route matches.
 */
export function allowedMethods(segments: string[]): string[] | null {
  let best: { route: ApiRoute; ranks: number[] } | null = null;
  for (const { route, segments: pattern } of compiled) {
    const ranks = matchRanks(pattern, segments);
    if (ranks && (!best || moreSpecific(ranks, best.ranks))) best = { route, ranks };
  }
  if (!best) return null;
  const allowed = new Set([...best.route.methods, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  return [...allowed].sort();
}
