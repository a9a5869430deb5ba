import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { randomGenerator } from "@/bench/random";
import { VOCABULARY } from "@/bench/zipf-words";

/** Texts to hold the FTS5 tokenizer copy to: the repository's learnings, generated mixes, word lists. */

const ROOT = path.resolve(import.meta.dirname, "../..");

function jsonFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".json"))
    .map((name) => path.join(dir, name));
}

function stringsIn(value: unknown, into: Set<string>): void {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) {
    into.add(value.filter((v) => typeof v === "string").join(" "));
    for (const v of value) stringsIn(v, into);
  } else if (value && typeof value === "object") for (const v of Object.values(value)) stringsIn(v, into);
}

/**
 * Every string in the repository's learning data (bench/relevance/*.json, test/fixtures/seed.json,
 * test/fixtures/lessons/**: learnings' content and tags, prompts, titles; a string array also as one
 * text, as tags are stored) and the benchmark vocabulary.
 */
export function repositoryTexts(): string[] {
  const files = [...jsonFiles("bench/relevance"), "test/fixtures/seed.json", ...jsonFiles("test/fixtures/lessons")];
  const texts = new Set<string>();
  for (const file of files) stringsIn(JSON.parse(readFileSync(path.join(ROOT, file), "utf8")), texts);
  texts.add(VOCABULARY.join(" "));
  return [...texts].filter((t) => t.trim());
}

const cp = (...codes: number[]) => String.fromCodePoint(...codes);
const letters = (rand: () => number, n: number, alphabet = "abcdefghijklmnopqrstuvwxyz") =>
  Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join("");

/** Pieces the generated texts are made of; each is a function of the generator. */
const PIECES: ((rand: () => number) => string)[] = [
  (r) => VOCABULARY[Math.floor(r() * VOCABULARY.length)]!,
  (r) => VOCABULARY[Math.floor(r() * VOCABULARY.length)]!.toUpperCase(),
  (r) => `parse${letters(r, 1).toUpperCase()}${letters(r, 4)}Entry`,
  (r) => `${Math.floor(r() * 100000)}`,
  (r) => `v${Math.floor(r() * 9)}.${Math.floor(r() * 20)}.${Math.floor(r() * 9)}-rc${Math.floor(r() * 3)}`,
  () => "src/lib/foo_bar.ts:42 ~/.config/baton_x.json --dry-run a=b&c=d",
  () => "Café CAFÉ naïve Ærøskøbing Łódź Őrség ǖǘ Ĳssel façade résumé niño über",
  () => "Cafe\u0301 nai\u0308ve n\u0303 u\u0308\u0304 \u0301start A\u030a e\u0323\u0302",
  (r) => "résumé déjà vu Ærøskøbing crème brûlée".normalize(r() < 0.5 ? "NFD" : "NFC"),
  () => "Σίσυφος ΣΊΣΥΦΟΣ ς Ελληνικά Привет ЁЖИК Ёлка Україна ґ",
  () => "漢字 日本語のテキスト カタカナー 한국어 텍스트 中文，标点。",
  () => "مرحبا بالعالم שָׁלוֹם नमस्ते दुनिया ภาษาไทย",
  () => "😀 🙂 👍🏻 👨‍👩‍👧 ❤️ 🇨🇭 1️⃣ a😀b a🙂b",
  () => `a${cp(0x200d)}b c${cp(0x200c)}d e${cp(0xad)}f g${cp(0xa0)}h i${cp(0x3000)}j k${cp(0x200f)}l m${cp(0xfeff)}n`,
  () => "İstanbul ISTANBUL ıi İi Straße STRASSE ẞ ß ﬁle ﬂow Ĳ ＡＢＣ１２３ ｆｕｌｌ Ⅻ ⅷ ² ½ ① ⓐ",
  () => `${cp(0x10400, 0x10428)} ${cp(0x1d400, 0x1d41a)} ${cp(0x870)} ${cp(0x2a700)} ${cp(0x30000)} ${cp(0xe000)}`,
  () => `x${cp(0xe0041)}y ${cp(0xfe0f)}z w${cp(0xe0100)}v ${cp(0x100000)}u \uD800 a\uDC00b \uFFFD \uFFFE\uFFFF`,
  () => "ba₂ed x₂₂ing 123ing 1sses 99ies ₂ed a₂₂ed Ⅻed",
  (r) => letters(r, 1 + Math.floor(r() * 3)),
  (r) => letters(r, 60 + Math.floor(r() * 11)),
  (r) => letters(r, 200 + Math.floor(r() * 100)),
  (r) => letters(r, 55 + Math.floor(r() * 10), "aeéiouybcdlnsstwxzñ") + ["ing", "ed", "ational", "s", "ies", ""][Math.floor(r() * 6)],
  (r) => letters(r, 1 + Math.floor(r() * 8), "aeiouy").concat(["ing", "ed", "eed", "es", "ly"][Math.floor(r() * 5)]!),
  () => "\t\n\r\0 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
];
const JOINS = [" ", " ", " ", "", "_", "-", ".", "/", "\n", ", ", "é", "\u0301"];

/** count texts of 1–40 pieces from a seeded generator. */
export function randomTexts(count: number, seed: number): string[] {
  const rand = randomGenerator(seed);
  return Array.from({ length: count }, () => {
    const pieces = Array.from({ length: 1 + Math.floor(rand() * 40) }, () => PIECES[Math.floor(rand() * PIECES.length)]!(rand));
    return pieces.reduce((text, piece) => text + JOINS[Math.floor(rand() * JOINS.length)] + piece);
  });
}

const SUFFIXES = (
  "ational tional enci anci izer logi bli alli entli eli ousli ization ation ator alism iveness fulness ousness " +
  "aliti iviti biliti icate ative alize iciti ical ful ness al ance ence er ic able ible ant ement ment ent sion " +
  "tion ion ou ism ate iti ous ive ize ing ed eed ies sses ss s y e ll l ly ings edly izations ements fully ably " +
  "ied ying at bl iz atingly"
).split(" ");

/**
 * Words that walk every Porter rule and condition: all stems of one to three letters over an alphabet
 * of vowels, y, w, x, doubling and ending consonants, and the benchmark's words, each with each suffix
 * and alone; in texts of 2,000 words.
 */
export function porterTexts(): string[] {
  const alphabet = "aeiybdlstwxz";
  const stems: string[] = [...VOCABULARY.slice(0, 400)];
  for (const a of alphabet) {
    stems.push(a);
    for (const b of alphabet) {
      stems.push(a + b);
      for (const c of alphabet) stems.push(a + b + c);
    }
  }
  const words = stems.flatMap((stem) => [stem, ...SUFFIXES.map((suffix) => stem + suffix)]);
  const texts: string[] = [];
  for (let i = 0; i < words.length; i += 2000) texts.push(words.slice(i, i + 2000).join(" "));
  return texts;
}

/**
 * Every code point of the Basic Multilingual Plane and, past it, every 61st and the `astral` ones
 * named: each as "q?q" (inside a token), "?q" (starting one) and "ab??ing" (stemmed).
 */
export function codePointTexts(astral: readonly number[]): string[] {
  const points = new Set<number>();
  for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) points.add(c);
  for (let c = 0x10000; c < 0x110000; c += 61) points.add(c);
  for (const c of astral) if (c >= 0x10000 && c < 0x110000) points.add(c);
  const list = [...points].sort((a, b) => a - b);
  const texts: string[] = [];
  for (let i = 0; i < list.length; i += 2048) {
    texts.push(list.slice(i, i + 2048).map((c) => `q${cp(c)}q ${cp(c)}Q ab${cp(c, c)}ing`).join(" "));
  }
  return texts;
}
