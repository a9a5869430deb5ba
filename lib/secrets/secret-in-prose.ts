import { encodesSecret, wrappedBase64 } from "./encoded-secret";

/**
 * The generic rule beside the named patterns: a credential written in prose ("…with secret
 * wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY") has no name the named patterns know. A token is withheld when
 * its shape is a secret's (long, mixed character classes, high Shannon entropy, not a hash, UUID, path or
 * identifier) and a word such as key, secret, token or password stands a few words before or after it.
 * Tuned on test/fixtures/secrets/development.json and ordinary.txt; measured by bench/secrets.ts.
 */

/**
 * Words that say a nearby value is a credential. Identifiers are split first: apiKey, AWS_SECRET_KEY. In
 * the languages teams write in besides English too ("der geheime Schlüssel lautet …", "la clé secrète :").
 */
const SECRET_WORDS = new Set([
  ...["key", "secret", "token", "password", "passwd", "pwd", "passphrase", "credential", "credentials", "auth", "bearer", "apikey"],
  ...["schlüssel", "geheim", "geheime", "geheimer", "geheimes", "geheimnis", "zugangsdaten", "passwort", "kennwort"],
  ...["clé", "clef", "secrète", "jeton", "clave", "secreto", "secreta", "chave", "segredo", "senha", "chiave", "segreto", "segreta"],
  ...["sleutel", "geheim", "wachtwoord", "nyckel", "hemlig", "lösenord", "nøgle", "nøkkel", "klucz", "tajny", "hasło", "klíč", "heslo"],
  ...["ключ", "секрет", "секретный", "токен", "пароль", "anahtar", "gizli", "şifre", "avain", "salasana", "kulcs", "jelszó", "κλειδί"],
]);
/** The same in scripts written without spaces, found inside a run of text rather than as a word of their own. */
const SECRET_WORDS_UNSPACED = /シークレット|トークン|パスワード|秘密|密钥|密鑰|令牌|密码|密碼|口令|鍵|キー|비밀|토큰|키|암호/;
/** Words that say a value right after them is something else: "token hash 5e88…", "commit a1b2…". */
const NOT_SECRET_WORDS = new Set(["hash", "hashes", "sha", "sha1", "sha256", "sha512", "digest", "checksum", "commit", "integrity", "fingerprint", "id", "uuid", "etag", "trace", "span", "request", "version", "cursor", "prefix", "name", "type"]);
/** Password words: a short value right after one is enough ("the password is Plum-Velvet-93!"). */
const PASSWORD_WORDS = new Set(["password", "passwd", "pwd", "passphrase"]);
/**
 * A password word in prose, in English and in the languages teams write in besides (a case or possessive
 * ending allowed: "şifresi", "пароля"); in scripts without spaces, found inside a run of text.
 */
const PASSWORD_WORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:password|passwd|pwd|passphrase|(?:passwort|kennwort|mot de passe|contrase[ñn]a|senha|wachtwoord|has[łl]|l[öo]senord|passord|adgangskode|salasan|heslo|jelsz[óo]|[şs]ifre|parola|пароль|парол|κωδικ|סיסמ|كلمة المرور|كلمة السر|mật khẩu|kata sandi)\p{L}{0,4})(?![\p{L}\p{N}])|パスワード|暗証番号|密码|密碼|口令|비밀번호|암호`,
  "giu",
);
/** What says the value comes next, in those languages: "is", "ist", "lautet", "est", "es", "é", "är", "это", "是", "は", "는"… */
const LINKS = String.raw`[:=：—]|(?:is|was|ist|lautet|war|est|était|es|era|é|är|er|on|jest|это)(?![\p{L}\p{N}])|是|为|為|は|が|는|은|이|가`;
/** The little words between a password word and its value (and what says it is the value: all but a space). */
const PASSWORD_GAP = new RegExp(String.raw`^(?:\s*(?:${LINKS}|to|now)?\s*)+`, "iu");
/**
 * A few words between a password word and what says its value comes ("the password for the staging
 * admin is …", "das Passwort für die Datenbank ist …", "пароль от базы: …"): only with that word after them.
 */
const PASSWORD_GAP_WORDS = new RegExp(String.raw`^(?:\s+[\p{L}\p{N}][\p{L}\p{N}._'’-]{0,30}){1,6}?(?:\s*[:=：]|\s+(?:${LINKS}))\s*`, "iu");
/** Little words between a secret word and its value: "the key is …", "secret for prod: …". */
const LINKING_WORDS = new Set(["is", "was", "to", "of", "for", "as", "be", "now", "new", "the", "a", "an", "my", "our", "value", "here", "this", "it", "s"]);

const WORDS_BEFORE = 5;
const WORDS_AFTER = 4;
const WINDOW_CHARS = 80;
const MIN_PASSWORD = 6;
/** Shannon entropy floor in bits a character: random base62 of 20 characters has about 4.0, an identifier 3.3. */
const MAX_ENTROPY_FLOOR = 4.0;
const ENTROPY_PER_LOG_LENGTH = 0.85;
/** Hex secrets (32 hex: Twilio, Datadog; 64: webhook secrets) only right after a secret word: hex is mostly hashes. */
const HEX_SECRET_LENGTHS = new Set([32, 64]);
/** Random strings switch between upper case, lower case and digits often; identifiers (camelCase) rarely. */
const MIN_CLASS_SWITCHES = 0.2;

/**
 * Characters of base64, base64url, hex and the separators of token formats (SG.x.y, 8Q~, hvs.); "=" only
 * as padding at the end: `JWT_EXPIRES_IN=15m` is a name and a value, not one token, and the value may be one.
 */
const CANDIDATE = /(?<![A-Za-z0-9+/_.~-])[A-Za-z0-9+/_.~-]{16,}={0,2}(?![A-Za-z0-9+/=_.~-])/g;
/**
 * The longest token read: base64 of a whole .env on one line (`base64 -w0`, macOS's base64) runs to
 * kilobytes; longer ones are images and archives, not text.
 */
const MAX_TOKEN = 1 << 20;
/** A value right after "password", not the rest of a name ("password-stdin", "password-reset-flow"). */
const PASSWORD_VALUE = /^(?!-)[^\s"'`<>(){}[\],;\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}、。，：；！？（）「」]{6,64}/u;
/** A quoted password: the quote (JSON-escaped too) opens it and the same quote closes it; no space inside. */
const QUOTED_PASSWORD = /^(\\?)(["'`])(?!-)([^\s"'`\\]{6,64})\1\2/;
/**
 * A quoted passphrase of words ("correct horse battery staple"), said to be the password (`is`, `to`,
 * `now`, `:`, `=` before it, or right after "passphrase" or a `--password` flag): three to eight words,
 * no sentence inside. A message about passwords in quotes ("must be at least 12 characters") may be
 * withheld with it: a lost line of a handoff costs less than a leak.
 */
const QUOTED_PASSPHRASE = /^(\\?)(["'`])((?:[^\s"'`\\.!?,;]{1,24} ){2,7}[^\s"'`\\.!?,;]{1,24})\1\2/;
const HEX = /^[0-9a-f]+$/i;
/**
 * A short lower-case prefix before hex: a provider's tag (key-…, dd_…) when short or a secret word, and
 * then the hex decides; a longer word names what the hash identifies (`item-<hex>`, a React key).
 */
const PREFIXED_HEX = /^([a-z]{2,8})(?:[_-][a-z0-9]{1,3})?[_-]([0-9a-f]+)$/;
const TAG_LENGTH = 3;
/**
 * A short lower-case prefix, "_" and a random part: an object's id (Stripe's cus_…, Vercel's dpl_…)
 * unless a secret word stands right before it (the providers' secret prefixes have their own patterns).
 */
const TYPED_ID = /^[a-z]{2,5}_[A-Za-z0-9]{8,32}$/;
/** A path to a file: a "/" and a name with an extension (base64 has no "."; docs/…-2024Q3.md is no token). */
const FILE_PATH = /\/[^/]*\.[a-z][a-z0-9]{0,4}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGRITY = /^(?:sha1|sha256|sha384|sha512|md5)-/i;
/** An SSH public key's body (ssh-ed25519 AAAAC3NzaC1…, ssh-rsa AAAAB3NzaC1…): public, however random. */
const SSH_PUBLIC_KEY = /^AAAA[A-Z0-9]3NzaC1/;
/** An identifier that ends in a number: ProductionDeployKey2024, useAuthTokenRefresh2. */
const IDENTIFIER = /^[a-z]*(?:[A-Z][a-z]{2,})+[_-]?\d{0,4}$/;
/** A segment of a path, a dotted, kebab or snake name: lower case, or a capital then lower case (X-Hub-Signature-256). */
const WORDLIKE_SEGMENT = /^[A-Z]?[a-z0-9_.-]*$/;

function words(text: string): string[] {
  return text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function entropy(token: string): number {
  const counts = new Map<string, number>();
  for (const ch of token) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / token.length) * Math.log2(n / token.length);
  return bits;
}

/** 0 lower case, 1 upper case, 2 digit, 3 anything else. */
function charClass(code: number): number {
  if (code >= 97 && code <= 122) return 0;
  if (code >= 65 && code <= 90) return 1;
  return code >= 48 && code <= 57 ? 2 : 3;
}

function classSwitches(token: string): number {
  let switches = 0;
  for (let i = 1; i < token.length; i++) if (charClass(token.charCodeAt(i)) !== charClass(token.charCodeAt(i - 1))) switches++;
  return switches / token.length;
}

/**
 * Whether a token looks like a random secret and not like a hash, a UUID, a path or an identifier. "hex"
 * and "id" are secrets only right after a secret word.
 */
function secretShaped(token: string): "hex" | "id" | "random" | null {
  if (UUID.test(token) || INTEGRITY.test(token) || SSH_PUBLIC_KEY.test(token) || IDENTIFIER.test(token) || FILE_PATH.test(token)) return null;
  if (HEX.test(token)) return HEX_SECRET_LENGTHS.has(token.length) ? "hex" : null;
  const prefixed = PREFIXED_HEX.exec(token);
  if (prefixed) return HEX_SECRET_LENGTHS.has(prefixed[2]!.length) && (prefixed[1]!.length <= TAG_LENGTH || SECRET_WORDS.has(prefixed[1]!)) ? "hex" : null;
  if (!/\d/.test(token) || !/[A-Z]/.test(token) || !/[a-z]/.test(token)) return null;
  if (token.split(/[/._-]/).every((segment) => WORDLIKE_SEGMENT.test(segment))) return null;
  if (classSwitches(token) < MIN_CLASS_SWITCHES) return null;
  const floor = Math.min(MAX_ENTROPY_FLOOR, ENTROPY_PER_LOG_LENGTH * Math.log2(token.length));
  if (entropy(token) < floor) return null;
  return TYPED_ID.test(token) ? "id" : "random";
}

/** A URL's user part that is a token (https://<token>@github.com/…): long hex, or random by the rule above. */
export function tokenShaped(user: string): boolean {
  return (HEX.test(user) && user.length >= 32) || secretShaped(user) === "random";
}

/** The words a value is introduced by: what stands before it on its line, the linking words skipped. */
function introducedBy(before: string[]): string[] {
  let end = before.length;
  while (end > 0 && LINKING_WORDS.has(before[end - 1]!)) end--;
  return before.slice(0, end);
}

function nearSecretWord(text: string, start: number, end: number): { adjacent: boolean; near: boolean; password: boolean } {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = text.indexOf("\n", end);
  const before = introducedBy(words(text.slice(Math.max(lineStart, start - WINDOW_CHARS), start)));
  const after = words(text.slice(end, Math.min(lineEnd < 0 ? text.length : lineEnd, end + WINDOW_CHARS))).slice(0, WORDS_AFTER);
  const last = before.at(-1);
  if (last && NOT_SECRET_WORDS.has(last)) return { adjacent: false, near: false, password: false };
  // A secret word of a script without spaces ends the run of text before the value, or starts the one after it.
  const unspaced = (word: string | undefined) => !!word && SECRET_WORDS_UNSPACED.test(word);
  const adjacent = !!last && (SECRET_WORDS.has(last) || unspaced(last));
  const near = adjacent || before.slice(-WORDS_BEFORE).some((w) => SECRET_WORDS.has(w) || unspaced(w)) || after.some((w) => SECRET_WORDS.has(w) || unspaced(w));
  return { adjacent, near, password: !!last && PASSWORD_WORDS.has(last) };
}

/** Where passwords are kept, named where a password would be ("비밀번호는 1Password에 있습니다"). */
const PASSWORD_STORES = /^(?:1password|lastpass|bitwarden|keepass\w*|dashlane|keychain|vault)$/i;

/** A short password after a password word: letters with a digit or a symbol, not code, a path or a URL. */
function passwordShaped(value: string): boolean {
  if (/^[/$.~{[]|^%\w+%$|:\/\/|\.[a-z]+\(|^\d+$/i.test(value) || PASSWORD_STORES.test(value)) return false;
  return /[a-z]/i.test(value) && /[\d!#%*&@^+=?-]/.test(value);
}

export type ProseSecret = { start: number; end: number; label: "secret" | "password" | "encoded secret" };

/**
 * Spans of `text` holding a credential the named patterns do not know. `holdsSecret` (the redactor) says
 * whether base64 decodes to a secret: read from the tokens this rule reads anyway, so no second pass.
 */
export function secretsInProse(text: string, holdsSecret: (decoded: string) => boolean): ProseSecret[] {
  // Wrapped base64 is read whole: a secret may straddle its lines.
  const blocks = text.includes("\n") ? wrappedBase64(text).filter((block) => encodesSecret(block.token, holdsSecret)) : [];
  const spans: ProseSecret[] = blocks.map(({ start, end }) => ({ start, end, label: "encoded secret" }));
  for (const match of text.matchAll(CANDIDATE)) {
    if (match[0].length > MAX_TOKEN || blocks.some((block) => match.index >= block.start && match.index < block.end)) continue;
    const token = match[0].replace(/[.=~_-]+$/, (tail) => (tail.startsWith("=") ? tail : ""));
    const start = match.index;
    const end = start + token.length;
    if (encodesSecret(token, holdsSecret)) {
      spans.push({ start, end, label: "encoded secret" });
      continue;
    }
    const shape = secretShaped(token);
    if (!shape) continue;
    const context = nearSecretWord(text, start, end);
    if (shape === "random" ? context.near : context.adjacent) spans.push({ start, end, label: "secret" });
  }
  for (const match of text.matchAll(PASSWORD_WORD)) {
    const at = match.index + match[0].length;
    const span = passwordSpan(text.slice(at), /^passphrase$/i.test(match[0]) || text.slice(Math.max(0, match.index - 2), match.index) === "--");
    if (span) spans.push({ start: at + span.start, end: at + span.end, label: "password" });
  }
  return spans;
}

/**
 * Where the password a password word introduces lies in the text after it (`rest`): right after the word
 * and its little words, else after a few words and what says the value comes. `named`: the word itself
 * says a value follows (passphrase, a `--password` flag).
 */
function passwordSpan(rest: string, named: boolean): { start: number; end: number } | null {
  for (const gapOf of [PASSWORD_GAP, PASSWORD_GAP_WORDS]) {
    const gap = gapOf.exec(rest)?.[0];
    if (gap === undefined) continue;
    const phrase = named || gap.trim() !== "" ? QUOTED_PASSPHRASE.exec(rest.slice(gap.length)) : null;
    const value = phrase ? { text: phrase[3]!, offset: phrase[1]!.length + 1 } : passwordAfter(rest.slice(gap.length));
    if (!value || value.text.length < MIN_PASSWORD || (!phrase && !passwordShaped(value.text))) continue;
    const start = gap.length + value.offset;
    return { start, end: start + value.text.length };
  }
  return null;
}

/** The value a password word introduces: inside the quotes that open it (`is "…"`, `` `…` ``, `\"…\"`), or up to a space. */
function passwordAfter(rest: string): { text: string; offset: number } | null {
  const quoted = QUOTED_PASSWORD.exec(rest);
  if (quoted) return { text: quoted[3]!, offset: quoted[1]!.length + 1 };
  // A full stop or comma ends the sentence, not the password.
  const bare = PASSWORD_VALUE.exec(rest)?.[0].replace(/[.,?]$/, "");
  return bare ? { text: bare, offset: 0 } : null;
}
