import { readdirSync, readFileSync, rmSync } from "node:fs";

export type Heap = { usedMb: number; totalMb: number };

/**
 * Node options for the server so that SIGUSR2 makes it write a diagnostic report (process.report)
 * into `dir`: the only outside view of its JavaScript heap that needs neither an inspector client
 * nor a change to the server.
 */
export function heapReportOptions(dir: string): Record<string, string> {
  return { NODE_OPTIONS: `--report-on-signal --report-signal=SIGUSR2 --report-directory=${dir} --report-compact --report-exclude-network` };
}

/** Asks process `pid` for a report, reads its JavaScript heap figures (MiB) and deletes it; null if none came within 10 s (its event loop may be busy). */
export async function heapOf(pid: number, dir: string): Promise<Heap | null> {
  const reports = () => readdirSync(dir).filter((f) => f.startsWith("report.") && f.endsWith(".json"));
  for (const old of reports()) rmSync(`${dir}/${old}`, { force: true });
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    const [file] = reports();
    if (!file) continue;
    try {
      const heap = (JSON.parse(readFileSync(`${dir}/${file}`, "utf8")) as { javascriptHeap: { usedMemory: number; totalMemory: number } }).javascriptHeap;
      rmSync(`${dir}/${file}`, { force: true });
      return { usedMb: heap.usedMemory / 2 ** 20, totalMb: heap.totalMemory / 2 ** 20 };
    } catch {
      // still being written
    }
  }
  return null;
}
