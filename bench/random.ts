/** A small seeded generator (an LCG): the same seed gives the same store and the same questions every run. */
export function randomGenerator(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
