import { describe, expect, it, vi } from "vitest";

// Next.js gives each bundle (and each dev reload) its own copy of a module: a fresh import after
// resetModules is such a copy.
async function freshCopy() {
  vi.resetModules();
  return import("@/lib/process/process-state");
}

describe("processWide", () => {
  it("makes a value once and answers it again by name", async () => {
    const { processWide } = await freshCopy();
    const make = vi.fn(() => ({ made: true }));
    const first = processWide("test: made once", make);
    expect(processWide("test: made once", make)).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
    expect(processWide("test: another name", () => ({ made: true }))).not.toBe(first);
  });

  it("keeps a value made as null or undefined (no configured embedder) without making it again", async () => {
    const { processWide } = await freshCopy();
    const make = vi.fn(() => undefined);
    processWide("test: nothing configured", make);
    expect(processWide("test: nothing configured", make)).toBeUndefined();
    expect(make).toHaveBeenCalledTimes(1);
  });

  it("answers one instance to every copy of the module (route bundles, dev reloads)", async () => {
    const a = await freshCopy();
    const b = await freshCopy();
    expect(a.processWide).not.toBe(b.processWide);
    const fromA = a.processWide("test: shared", () => new Map());
    expect(b.processWide("test: shared", () => new Map())).toBe(fromA);
  });
});
