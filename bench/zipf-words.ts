/**
 * Words as a real store's learnings and a session's hints spread them: a few very common, many rare
 * (Zipf's law, s = 1). The full-text search's cost and whether it runs at all depend on that spread:
 * the context leaves out hint words in more than 5% of the store (lib/context/hints/hint-query.ts MAX_SHARE),
 * so a vocabulary where every word is common never searches and measures the fallback instead.
 *
 * The vocabulary is made, not downloaded: developer words, identifiers built from verbs and nouns
 * (`parseLedger` is one word to the full-text index) and made-up names (services, vendors, flags),
 * deterministically, so every run seeds the same store and asks the same questions.
 */
import { randomGenerator } from "./random";

const BASE = `run migrations before tests deploy staging production cache redis session cookie token refresh auth login
  webhook stripe payment ledger refund currency timezone cron job queue worker retry timeout database index query
  postgres sqlite libsql schema column constraint foreign key transaction lock deadlock pool connection server client
  api route handler middleware proxy header cors origin csrf rate limit pagination cursor offset sort filter search
  react component hook state effect memo suspense action form validation zod error boundary toast modal
  docker image build layer kubernetes pod node helm chart terraform module variable output secret vault rotate
  ci pipeline artifact lint typecheck eslint prettier format commit rebase review pull request
  flag rollout canary metric alert dashboard log trace span latency p99 memory leak heap profile cpu
  mobile expo android ios release store native camera barcode push notification offline sync
  analytics dbt model warehouse bigquery partition backfill airflow dag schedule cost budget quota invoice
  config env parser loader encoder decoder buffer stream socket channel event emitter listener callback promise
  async await thread mutex semaphore scheduler reducer selector store slice thunk saga router layout page
  template render hydrate bundle chunk minify tree shake polyfill transpile compile linker symbol binary
  checksum hash digest signature certificate tls handshake dns resolver gateway ingress egress firewall subnet
  replica shard primary follower leader election consensus snapshot journal wal compaction vacuum migration
  seed fixture mock stub spy assertion snapshot coverage benchmark flaky parallel matrix runner cache`
  .split(/\s+/)
  .filter(Boolean);

const VERBS = "get set parse load save sync build fetch send read write open close start stop reset create delete update merge split format validate encode decode resolve handle retry flush drain render".split(" ");
const NOUNS = "User Account Order Invoice Ledger Payment Refund Session Token Cookie Cache Queue Job Worker Event Message Batch Record Row Column Index Schema Query Cursor Page Route Request Response Header Body Stream Buffer Chunk Config Env Secret Key Cert Metric Span Trace Log Alert Flag Rollout Build Image Layer Pod Node Chart Module Store Slice State Form Field Toast Modal Camera Scanner Push Sync Report Export Import Webhook Tenant Team Member Role Policy Quota Budget Plan Price Cart Checkout".split(" ");
const SYLLABLES = "ka lo mi ra zen tor vex quo nim bus spro ket mar lin tun dra jun ip os prey ba salt co balt fen nel gar net hal cy on ibe jas per kes trel ar gon vel ox tri um pho lux syl van".split(" ");

function makeVocabulary(): string[] {
  const rand = randomGenerator(20261126);
  const shuffle = <T>(list: T[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };
  const seen = new Set<string>();
  const add = (list: string[], word: string) => {
    if (seen.has(word.toLowerCase())) return;
    seen.add(word.toLowerCase());
    list.push(word);
  };
  const base: string[] = [];
  for (const w of BASE) add(base, w);
  const identifiers: string[] = [];
  for (const v of VERBS) for (const n of NOUNS) add(identifiers, v + n);
  const names: string[] = [];
  while (names.length < 1200) {
    const parts = 2 + Math.floor(rand() * 2);
    add(names, Array.from({ length: parts }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join(""));
  }
  // The plain words are the most common (as in real notes), identifiers and names make the long tail.
  return [...shuffle(base), ...shuffle([...identifiers, ...names])];
}

/** Every word, most common first: rank r is drawn with probability ∝ 1/r. */
export const VOCABULARY: readonly string[] = makeVocabulary();

const CUMULATIVE = (() => {
  const out = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let r = 0; r < VOCABULARY.length; r++) out[r] = sum += 1 / (r + 1);
  for (let r = 0; r < out.length; r++) out[r]! /= sum;
  return out;
})();

/** A word drawn by Zipf's law (s = 1) over VOCABULARY. */
export function zipfWord(rand: () => number): string {
  const x = rand();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}
