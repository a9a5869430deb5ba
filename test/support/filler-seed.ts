/**
 * A seed.json whose learnings are `n` plain, distinct sentences about everyday chores: a store of the
 * size people have, so full-text search weighs words as it does in use (in a store of five learnings
 * every word is common). The words are none a test asks about.
 */
const WORDS = (
  "lunch printer calendar meeting invoice folder spreadsheet holiday coffee desk chair monitor cable " +
  "laptop charger badge parking elevator kitchen fridge plant window blind heater fan lamp notebook " +
  "pencil stapler envelope stamp courier reception visitor schedule agenda minutes slide projector " +
  "whiteboard marker eraser locker shower bicycle umbrella jacket scarf glove thermos kettle mug " +
  "napkin plate fork spoon bowl tray menu snack fruit juice water tea biscuit recipe grocery"
).split(" ");

/** Deterministic: the same store every run. */
function sentence(i: number): string {
  let x = (i + 1) * 2654435761;
  const words = new Set<string>();
  while (words.size < 7) {
    x = (x * 1103515245 + 12345) % 2147483648;
    words.add(WORDS[x % WORDS.length]!);
  }
  return `Office note ${i}: ${[...words].join(" ")}`;
}

export function fillerSeed(n: number, options: { extractedAt?: string; confirmed?: boolean } = {}) {
  const items = Array.from({ length: n }, (_, i) => ({
    id: `filler-${i}`,
    content: sentence(i),
    confirmed: options.confirmed ?? true,
    ...(options.extractedAt ? { extractedAt: options.extractedAt } : {}),
  }));
  return {
    version: "1.0.0",
    identity: { principalName: "Filler", aiName: "Fill" },
    learned: { patterns: items, insights: [], selfKnowledge: [] },
    state: {},
  };
}
