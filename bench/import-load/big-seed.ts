/**
 * A seed.json the size of the largest store seen (issue 21: 190,000 learnings in 13.9 MB): varied
 * sentences about code from a few hundred words, across the three kinds, some with tags, dates and
 * confirmation, as a pai-seed file that grew over years looks. Deterministic: the same file every run.
 */
const WORDS = (
  "build test deploy cache image layer container docker compose kubernetes pod service ingress secret " +
  "config env variable flag feature toggle branch merge rebase commit squash review approve release tag " +
  "version semver changelog migration schema table index column query join transaction lock timeout retry " +
  "backoff queue worker job cron schedule log metric trace span alert dashboard latency throughput memory " +
  "heap leak garbage collector thread async await promise callback stream buffer socket request response " +
  "header cookie session token auth login logout password hash salt encrypt decrypt certificate proxy " +
  "route handler middleware controller model view component hook state effect render props context store " +
  "reducer action selector form input button modal dialog toast tooltip layout grid flex css theme font " +
  "icon asset bundle chunk split lazy import export module package dependency lockfile npm yarn pnpm node " +
  "python rust go java typescript javascript lint format prettier eslint vitest jest playwright cypress " +
  "fixture mock stub spy snapshot coverage flaky parallel shard ci pipeline runner artifact cache key " +
  "terraform ansible helm chart namespace cluster node replica primary failover backup restore snapshot " +
  "s3 bucket cdn edge region zone dns domain tls https http websocket grpc rest graphql api endpoint " +
  "pagination cursor offset limit sort filter search fulltext ranking embedding vector similarity score " +
  "user team project member owner role permission scope audit history undo redo draft publish archive"
).split(" ");
const OPENERS = ["Always", "Never", "Prefer", "Remember that", "When", "Before", "After", "If", "Use", "Avoid", "Check", "Keep"];
const TAGS = ["infra", "frontend", "backend", "db", "testing", "ci", "security", "perf", "style", "tooling"];

function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

export function bigSeed(n: number): Record<string, unknown> {
  const rnd = random(21);
  const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)]!;
  const learned: Record<string, unknown[]> = { patterns: [], insights: [], selfKnowledge: [] };
  const categories = ["patterns", "patterns", "insights", "insights", "selfKnowledge"];
  const start = Date.parse("2023-01-01T00:00:00Z");
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => pick(WORDS));
    const item: Record<string, unknown> = { id: `l${i.toString(36)}`, content: `${pick(OPENERS)} ${words.join(" ")}.` };
    if (rnd() < 0.3) item.confirmed = true;
    if (rnd() < 0.1) item.tags = [pick(TAGS)];
    if (rnd() < 0.05) item.extractedAt = new Date(start + Math.floor(rnd() * 3 * 365 * 86_400_000)).toISOString();
    learned[pick(categories)]!.push(item);
  }
  return {
    version: "1.0.0",
    identity: { principalName: "Bench", aiName: "Loader" },
    learned,
    state: { activeProjects: [] },
  };
}
