/** A unified diff of two texts, line by line, with three lines of context (what `diff -u` prints). */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string): string {
  if (oldText === newText) return "";
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = diffOps(a, b);
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  const CONTEXT = 3;
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.op === " ") {
      i++;
      continue;
    }
    let start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend the hunk while changes are closer than twice the context.
    for (;;) {
      while (end < ops.length && ops[end]!.op !== " ") end++;
      let next = end;
      while (next < ops.length && ops[next]!.op === " ") next++;
      if (next < ops.length && next - end <= 2 * CONTEXT) end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + CONTEXT);
    const hunk = ops.slice(start, stop);
    const oldStart = hunk[0]!.a;
    const newStart = hunk[0]!.b;
    const oldCount = hunk.filter((o) => o.op !== "+").length;
    const newCount = hunk.filter((o) => o.op !== "-").length;
    out.push(`@@ -${oldCount ? oldStart + 1 : oldStart},${oldCount} +${newCount ? newStart + 1 : newStart},${newCount} @@`);
    for (const o of hunk) out.push(o.op + o.text);
    i = stop;
    start = stop;
  }
  return out.join("\n") + "\n";
}

type Op = { op: " " | "-" | "+"; text: string; a: number; b: number };

function splitLines(text: string): string[] {
  if (!text) return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Longest common subsequence; the files diffed here are small settings files. */
function diffOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) {
    return [...a.map((text, i) => ({ op: "-" as const, text, a: i, b: 0 })), ...b.map((text, j) => ({ op: "+" as const, text, a: n, b: j }))];
  }
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ op: " ", text: a[i]!, a: i++, b: j++ });
    // Removals first where either order is as short, as diff -u prints them.
    else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ op: "-", text: a[i]!, a: i++, b: j });
    else ops.push({ op: "+", text: b[j]!, a: i, b: j++ });
  }
  return ops;
}
