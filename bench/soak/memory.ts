import { readdirSync, readFileSync } from "node:fs";
import { median } from "../context-speed/measure";

export type Memory = { rssMb: number; anonMb: number; processes: number };

function statusField(status: string, field: string): number {
  const m = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  return m ? Number(m[1]) / 1024 : 0;
}

/**
 * Resident memory of every process in the process group `pgid` (the server starts in its own group),
 * from /proc: VmRSS, and RssAnon (anonymous pages: the JavaScript heap and native allocations, without
 * mapped files), in MiB.
 */
export function groupMemory(pgid: number): Memory {
  let rssMb = 0;
  let anonMb = 0;
  let processes = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid pgrp …: comm may hold spaces, so split after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      rssMb += statusField(status, "VmRSS");
      anonMb += statusField(status, "RssAnon");
      processes++;
    } catch {
      // gone between the listing and the read
    }
  }
  return { rssMb, anonMb, processes };
}

/** Least-squares slope of `ys` against `xs`. */
export function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den ? num / den : 0;
}

export type Flatness = {
  middleMedianMb: number;
  lastMedianMb: number;
  /** (last third's median − middle third's) / middle third's. */
  change: number;
  /** The least value of each third: what survives the collections, where a leak shows even in a sawtooth. */
  middleFloorMb: number;
  lastFloorMb: number;
  /** Slope over the last two thirds, MiB per minute, and what it adds over their span as a share of the middle median. */
  slopeMbPerMin: number;
  trend: number;
  flat: boolean;
};

/**
 * Memory is flat when the last third's median is no more than `tolerance` above the middle third's (the
 * first third is warm-up: caches filling, code compiling) and the trend over the last two thirds would
 * not add more than `tolerance` over their span. The question is growth: memory given back (a fall,
 * however large) is flat, and `change` shows it.
 */
export function flatness(samples: { minutes: number; mb: number }[], tolerance: number): Flatness {
  const third = Math.floor(samples.length / 3);
  const middle = samples.slice(third, 2 * third);
  const last = samples.slice(2 * third);
  const tail = samples.slice(third);
  const middleMedianMb = median(middle.map((s) => s.mb));
  const lastMedianMb = median(last.map((s) => s.mb));
  const change = (lastMedianMb - middleMedianMb) / middleMedianMb;
  const slopeMbPerMin = slope(
    tail.map((s) => s.minutes),
    tail.map((s) => s.mb),
  );
  const span = tail.length > 1 ? tail[tail.length - 1]!.minutes - tail[0]!.minutes : 0;
  const trend = (slopeMbPerMin * span) / middleMedianMb;
  const floor = (list: { mb: number }[]) => Math.min(...list.map((s) => s.mb));
  return {
    middleMedianMb,
    lastMedianMb,
    change,
    middleFloorMb: floor(middle),
    lastFloorMb: floor(last),
    slopeMbPerMin,
    trend,
    flat: change <= tolerance && trend <= tolerance,
  };
}
