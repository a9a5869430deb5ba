/** The least wall time of `runs` calls of `work`, in milliseconds: the figure least disturbed by a busy machine. */
export function leastTime(runs: number, work: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}
