import { FOLD_RUNS, KIND_CHANGES } from "./fts-unicode-data";

/**
 * Lookups over the measured unicode61 tables (fts-unicode-data.ts) for characters past ASCII: what
 * kind a code point is and what it folds to. The Basic Multilingual Plane, where nearly all text
 * lives, is expanded once into flat arrays (192 KB) so a lookup is one index; the rest is searched.
 */

export const SEPARATOR = 0;
export const TOKEN = 1;
/** A combining accent: it continues a token (and folds to nothing) but cannot start one. */
export const MARK = 2;

const BMP = 0x10000;
const bmpKind = new Uint8Array(BMP);
/** What each BMP code point folds to (0: dropped). Folds never leave the BMP. */
const bmpFold = new Uint16Array(BMP);
/** Kind changes and fold runs past the BMP, searched when a character needs them. */
const astralChanges: number[] = [];
const astralRuns: number[] = [];

function expandKinds(): void {
  for (let i = 0; i < KIND_CHANGES.length; i += 2) {
    const start = KIND_CHANGES[i]!;
    const kind = KIND_CHANGES[i + 1]!;
    if (start >= BMP) {
      // The kind in force where the BMP ends carries on until the first change past it.
      if (astralChanges.length === 0 && start > BMP) astralChanges.push(BMP, KIND_CHANGES[i - 1]!);
      astralChanges.push(start, kind);
      continue;
    }
    const end = i + 2 < KIND_CHANGES.length ? Math.min(KIND_CHANGES[i + 2]!, BMP) : BMP;
    bmpKind.fill(kind, start, end);
  }
  if (astralChanges.length === 0) astralChanges.push(BMP, bmpKind[BMP - 1]!);
}

function expandFolds(): void {
  for (let c = 0; c < BMP; c++) bmpFold[c] = c;
  for (let i = 0; i < FOLD_RUNS.length; i += 4) {
    const start = FOLD_RUNS[i]!;
    if (start >= BMP) {
      astralRuns.push(...FOLD_RUNS.slice(i, i + 4));
      continue;
    }
    const count = FOLD_RUNS[i + 1]!;
    const stride = FOLD_RUNS[i + 2]! >> 1;
    const byOffset = (FOLD_RUNS[i + 2]! & 1) === 0;
    const value = FOLD_RUNS[i + 3]!;
    for (let k = 0, c = start; k < count; k++, c += stride) bmpFold[c] = byOffset ? c + value : value;
  }
}

expandKinds();
expandFolds();

/** The kind (SEPARATOR, TOKEN, MARK) of a code point past ASCII. */
export function kindOf(cp: number): number {
  if (cp < BMP) return bmpKind[cp]!;
  // The last change at or before cp.
  let lo = 0;
  let hi = astralChanges.length / 2 - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (astralChanges[mid * 2]! <= cp) lo = mid;
    else hi = mid - 1;
  }
  return astralChanges[lo * 2 + 1]!;
}

/** What FTS5 writes for a token or mark code point past ASCII: lower case, accent removed; 0 for nothing. */
export function foldOf(cp: number): number {
  if (cp < BMP) return bmpFold[cp]!;
  for (let i = 0; i < astralRuns.length; i += 4) {
    const start = astralRuns[i]!;
    const stride = astralRuns[i + 2]! >> 1;
    const offset = cp - start;
    if (offset < 0 || offset >= astralRuns[i + 1]! * stride || offset % stride !== 0) continue;
    return (astralRuns[i + 2]! & 1) === 0 ? cp + astralRuns[i + 3]! : astralRuns[i + 3]!;
  }
  return cp;
}
