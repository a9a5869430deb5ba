/**
 * The context's render and pack alone (lib/context/pack: packContext), against the old path that
 * rendered every candidate's line up front (test/unit/pack-reference.ts), in the same run. Data shaped
 * like bench/context-profile.ts's at 10k learnings: `--candidates` learnings drawn from a store of
 * bench/seed-store.ts sentences, ranked, a few pinned, over 180 days (older ones stale), the seed's
 * identity and a handoff; counted with countTokensByLine as the server does. Each round gives both
 * paths fresh data of the same shape (new relevances, so each line's facts are new), alternating which
 * goes first; every answer is checked to be the same. Prints µs per context and the ratio.
 *
 *   npx tsx bench/pack-speed.ts [--rounds 3000] [--candidates 134] [--budget 2000]
 */
import { isDeepStrictEqual, parseArgs } from "node:util";
import type { ContextData, ContextLearning } from "../lib/context/context-types";
import { packContext } from "../lib/context/pack/build-context";
import { countTokensByLine } from "../lib/context/pack/tokenizer";
import { LEARNING_KINDS } from "../lib/rules";
import { contextData, contextNow, contextOptions, kindCounts } from "../test/support/context-data";
import { referencePack } from "../test/unit/pack-reference";
import { randomGenerator, sentence } from "./seed-store";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3000" }, candidates: { type: "string", default: "134" }, budget: { type: "string", default: "2000" } } });
const rounds = Number(values.rounds);
const candidates = Number(values.candidates);
const STORE = 10_000;
const PINNED = 2;
const DAY_MS = 86_400_000;

const rand = randomGenerator(25);
const store = Array.from({ length: STORE }, (_, i) => ({ id: `l${i}`, kind: LEARNING_KINDS[i % LEARNING_KINDS.length]!, content: sentence(rand), confirmed: rand() < 0.8, writtenAt: new Date(contextNow.getTime() - rand() * 180 * DAY_MS) }));

/** One session start's data: pinned ones first, then the ranked ones by falling relevance. */
function request(): ContextData {
  const learnings: ContextLearning[] = [];
  let relevance = 1;
  for (let i = 0; i < candidates; i++) {
    const l = store[Math.floor(rand() * STORE)]!;
    const pinned = i < PINNED;
    learnings.push({ ...l, relevance: pinned ? null : Math.round(relevance * 100) / 100, ...(pinned ? { pinned } : {}) });
    if (!pinned) relevance *= 0.97 + rand() * 0.03;
  }
  return contextData({
    activeTask: null,
    identity: { aiName: "Ivy", principalName: "Bench", preferences: { responseStyle: "concise" } },
    learnings,
    learningCounts: kindCounts(3334, 3333, 3333),
    proposals: [],
    proposalCount: 0,
  });
}

const options = contextOptions({ budget: Number(values.budget), source: "startup" });
const paths = {
  old: (data: ContextData) => referencePack(data, options, countTokensByLine),
  new: (data: ContextData) => packContext(data, options, countTokensByLine),
};
const spent = { old: 0, new: 0 };
const WARM_UP = 200;
for (let round = 0; round < WARM_UP + rounds; round++) {
  const order = round % 2 ? (["old", "new"] as const) : (["new", "old"] as const);
  for (const path of order) {
    const data = request();
    const started = performance.now();
    paths[path](data);
    if (round >= WARM_UP) spent[path] += performance.now() - started;
  }
  // The same data through both paths: the same answer.
  const data = request();
  const before = paths.old(data);
  const { built: after, shownLearningIds } = paths.new(data);
  const same =
    before.text === after.context && before.tokenEstimate === after.tokenEstimate && isDeepStrictEqual(before.sections, after.sections) && isDeepStrictEqual(before.shown, shownLearningIds);
  if (!same) throw new Error(`round ${round}: the paths disagree`);
}
const per = (ms: number) => ((ms / rounds) * 1000).toFixed(1);
console.log(`${rounds} contexts each, ${candidates} candidates, budget ${options.budget}: old ${per(spent.old)} µs, new ${per(spent.new)} µs a context (new/old ${(spent.new / spent.old).toFixed(2)})`);
