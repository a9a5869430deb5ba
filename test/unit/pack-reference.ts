/**
 * The packer as it was before it rendered lines on demand (lib/context/pack/pack-context.ts at
 * 9ca4ec5), kept as the oracle the faster one must match byte for byte (pack-lazy.test.ts) and as the
 * old path bench/pack-speed.ts measures against. Every line of every section is rendered up front.
 */
import type { ContextData, ContextOptions, SectionName, SectionReport } from "@/lib/context/context-types";
import { learningsTotal } from "@/lib/context/pack/learning-counts";
import type { PackLimits, PackResult } from "@/lib/context/pack/pack-context";
import { renderSections, type SectionDraft } from "@/lib/context/pack/render-sections";

type EagerDraft = Omit<SectionDraft, "items"> & { items: string[] };
type Placed = { draft: EagerDraft; kept: number[] };

const SEPARATOR = "\n\n";

/** The old lower bound, as it was (a regex over the whole line). */
function fewestTokens(text: string): number {
  if (/[\r\n]/.test(text)) return text ? 1 : 0;
  return text.match(/\S+/gu)?.length ?? 0;
}

/** Every section's lines rendered, as the old renderSections returned them. */
export function eagerSections(data: ContextData, options: Pick<ContextOptions, "mode" | "source">): EagerDraft[] {
  return renderSections(data, options).map((d) => ({ ...d, items: Array.from({ length: d.items.length }, (_, i) => d.items.at(i)!) }));
}

/** The old packContext's output: what the context engine answered before. */
export function referencePack(data: ContextData, options: ContextOptions, count: (text: string) => number) {
  const packed = referencePackSections(eagerSections(data, options), { budget: options.budget, maxChars: options.maxChars, count });
  const shown = (packed.kept.learnings ?? []).map((i) => data.learnings[i]!.id);
  return { ...packed, shown, learningsTotal: learningsTotal(data.learningCounts) };
}

function render(draft: EagerDraft, kept: number[]): string {
  const left = draft.items.length - kept.length + (draft.unlisted ?? 0);
  const lines = [draft.header(kept.length), ...kept.map((i) => draft.items[i]!)];
  if (left > 0 && draft.omitted) lines.push(draft.omitted(left));
  if (draft.footer) lines.push(draft.footer);
  return lines.join("\n");
}

function assemble(placed: Placed[]): string {
  return placed.map((p) => render(p.draft, p.kept)).join(SEPARATOR);
}

const DROPPED_NAMES: Record<SectionName, (n: number) => string> = {
  mapping: () => "project mapping note",
  setup: () => "setup note",
  identity: () => "identity",
  task: (n) => `active task memory (${n} lines)`,
  handoff: (n) => `last handoff (${n} lines)`,
  learnings: (n) => `${n} learnings`,
  proposals: (n) => `${n} pending proposals`,
  state: () => "session state",
};

type NoteTier = "full" | "must" | "none";

function droppedNote(dropped: EagerDraft[], tier: NoteTier): string {
  if (tier === "none" || !dropped.length) return "";
  if (tier === "must") return dropped.flatMap((d) => (d.mustNote ? [`${d.mustNote}.`] : [])).join(" ");
  const names = dropped.map((d) => {
    const name = DROPPED_NAMES[d.name](d.items.length + (d.unlisted ?? 0));
    return d.mustNote ? `${name} (${d.mustNote})` : name;
  });
  return `Left out to fit the budget: ${names.join(", ")}.`;
}

export function referencePackSections(drafts: EagerDraft[], limits: PackLimits): PackResult {
  const memo = new Map<string, number>();
  const count = (text: string) => {
    let n = memo.get(text);
    if (n === undefined) memo.set(text, (n = limits.count(text)));
    return n;
  };
  for (const tier of ["full", "must", "none"] as const) {
    let budget = limits.budget;
    let maxChars = limits.maxChars;
    while (budget > 0 && maxChars > 0) {
      const placed = greedy(drafts, budget, maxChars, count);
      const dropped = drafts.filter((d) => !placed.some((p) => p.draft === d));
      const body = assemble(placed);
      const text = [body, droppedNote(dropped, tier)].filter(Boolean).join(SEPARATOR);
      const tokens = limits.count(text);
      if (tokens <= limits.budget && text.length <= limits.maxChars) {
        return { text, tokenEstimate: tokens, sections: report(drafts, placed, count), kept: Object.fromEntries(placed.map((p) => [p.draft.name, p.kept])) };
      }
      budget -= Math.max(1, tokens - limits.budget);
      maxChars -= Math.max(1, text.length - limits.maxChars);
    }
  }
  return { text: "", tokenEstimate: 0, sections: report(drafts, [], limits.count), kept: {} };
}

function greedy(drafts: EagerDraft[], budget: number, maxChars: number, count: (t: string) => number): Placed[] {
  const placed: Placed[] = [];
  let tokens = 0;
  let chars = 0;
  const lineTokens = (line: string) => count(line) + 1;
  for (const draft of drafts) {
    const sepTokens = placed.length ? 1 : 0;
    const sepChars = placed.length ? SEPARATOR.length : 0;
    const total = draft.items.length + (draft.unlisted ?? 0);
    const fixed = (kept: number) => {
      const lines = [draft.header(kept), ...(draft.footer ? [draft.footer] : [])];
      if (kept < total && draft.omitted) lines.push(draft.omitted(total - kept));
      return { tokens: lines.reduce((t, l) => t + lineTokens(l), 0), chars: lines.reduce((c, l) => c + l.length + 1, 0) };
    };
    const kept: number[] = [];
    let itemTokens = 0;
    let itemChars = 0;
    for (const [i, item] of draft.items.entries()) {
      const c = itemChars + item.length + 1;
      const f = fixed(kept.length + 1);
      const cannot = tokens + sepTokens + itemTokens + fewestTokens(item) + 1 + f.tokens > budget;
      const t = cannot ? Infinity : itemTokens + lineTokens(item);
      if (tokens + sepTokens + t + f.tokens > budget || chars + sepChars + c + f.chars > maxChars) {
        if (draft.fillFrom !== undefined && i >= draft.fillFrom) continue;
        break;
      }
      kept.push(i);
      itemTokens = t;
      itemChars = c;
    }
    const f = fixed(kept.length);
    if (kept.length === 0 && (draft.items.length > 0 || tokens + sepTokens + f.tokens > budget || chars + sepChars + f.chars > maxChars)) continue;
    tokens += sepTokens + itemTokens + f.tokens;
    chars += sepChars + itemChars + f.chars;
    placed.push({ draft, kept });
  }
  return placed;
}

function report(drafts: EagerDraft[], placed: Placed[], count: (t: string) => number): SectionReport[] {
  const byName = new Map<SectionName, Placed>(placed.map((p) => [p.draft.name, p]));
  return drafts.map((draft) => {
    const p = byName.get(draft.name);
    const total = draft.items.length + (draft.unlisted ?? 0);
    return p
      ? { name: draft.name, tokens: count(render(draft, p.kept)), included: true, omitted: total - p.kept.length }
      : { name: draft.name, tokens: 0, included: false, omitted: total };
  });
}
