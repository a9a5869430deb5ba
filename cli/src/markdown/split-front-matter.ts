/** A markdown file's YAML front matter (between a first `---` line and the next) and the rest. */
export function splitFrontMatter(text: string): { front: string | null; body: string } {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^---[ \t]*(?:\r?\n|$)/m.exec(text);
  if (!match || match.index !== 0) return { front: null, body: text };
  return { front: match[1]!, body: text.slice(match[0].length) };
}

/**
 * The top-level `key: value` scalars of simple front matter (quotes removed). Enough to read ids and
 * dates; lists and nested values are not read here.
 */
export function frontMatterScalars(front: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of front.split(/\r?\n/)) {
    const match = /^([A-Za-z_][\w-]*):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match || !match[2]) continue;
    let value = match[2].replace(/[ \t]+#.*$/, "");
    if (/^"(.*)"$/.test(value)) {
      try {
        value = JSON.parse(value) as string;
      } catch {
        value = value.slice(1, -1);
      }
    } else if (/^'(.*)'$/.test(value)) value = value.slice(1, -1).replace(/''/g, "'");
    out[match[1]!] = value;
  }
  return out;
}

/** A top-level list in simple front matter, flow (`key: [a, "b"]`) or block (`key:` then `- a` lines). */
export function frontMatterList(front: string, key: string): string[] {
  const lines = front.split(/\r?\n/);
  const unquote = (s: string) => {
    const v = s.trim();
    if (/^".*"$/.test(v)) {
      try {
        return JSON.parse(v) as string;
      } catch {
        return v.slice(1, -1);
      }
    }
    return /^'.*'$/.test(v) ? v.slice(1, -1).replace(/''/g, "'") : v;
  };
  for (let i = 0; i < lines.length; i++) {
    const match = new RegExp(`^${key}:[ \\t]*(.*?)[ \\t]*$`).exec(lines[i]!);
    if (!match) continue;
    const inline = match[1]!;
    if (inline.startsWith("[")) {
      return inline
        .replace(/^\[|\]$/g, "")
        .split(",")
        .map(unquote)
        .filter(Boolean);
    }
    if (inline) return [unquote(inline)];
    const items: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const item = /^[ \t]*-[ \t]+(.*)$/.exec(lines[j]!);
      if (!item) break;
      items.push(unquote(item[1]!));
    }
    return items.filter(Boolean);
  }
  return [];
}
