/** A one-line progress bar on a terminal; nothing at all when stdout is not one. */
export function progressBar(total: number): { tick: (label: string) => void; more: (steps: number) => void; done: () => void } {
  const out = process.stdout;
  if (!out.isTTY || total === 0) return { tick: () => {}, more: () => {}, done: () => {} };
  const width = 24;
  let count = 0;
  let last = 0;
  const draw = (label: string) => {
    const filled = Math.round((count / total) * width);
    const columns = out.columns || 80;
    const line = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${count}/${total} ${label}`;
    out.write(`\r${line.slice(0, columns - 1).padEnd(Math.min(columns - 1, line.length + 10))}`);
  };
  return {
    tick(label) {
      count++;
      const now = Date.now();
      if (now - last > 50 || count === total) {
        last = now;
        draw(label);
      }
    },
    /** Steps found on the way (a large seed.json is sent in parts). */
    more(steps) {
      total += steps;
    },
    done() {
      out.write("\r\x1b[2K");
    },
  };
}
