/**
 * Keeps secrets on the developer's machine: everything a transcript carries to the server (the
 * handoff, proposals, anything spooled) passes through here first. Text inside <private>…</private>
 * and credentials are replaced by a short marker naming what was withheld.
 *
 * The patterns are written here rather than taken from a library: the maintained one on npm
 * (secretlint's recommended preset, ~220 KB, an async linter API) found only 3 of 8 credentials of a
 * real-shaped sample (no Stripe, Anthropic, GitHub classic, AWS key id or `password=` assignment),
 * and reports ranges, not replacements. Shapes follow gitleaks' rules and the providers' documented
 * token formats.
 */
import { secretsInProse } from "./secret-in-prose";

/** A credential shape: `label` names it in the marker; `keep` is a capture group kept verbatim (a name, a scheme). */
type Pattern = { label: string; re: RegExp; keep?: number; named?: true };

/** Names whose value is a secret in `NAME=value`, `"name": "value"`, `name: value` and `--name value`. */
const SECRET_WORDS = String.raw`(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|session[_-]?key|signing[_-]?key|encryption[_-]?key)`;
/**
 * The word may sit inside a longer name (DB_PASSWORD, github_token_prod) but must end a segment:
 * "tokenizer" is no secret. Bounded, so a long run of name characters cannot make the search quadratic.
 */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]{0,40}?${SECRET_WORDS}(?:[_.-][A-Za-z0-9_.-]{0,40})?(?![A-Za-z0-9])`;
/** A value: quoted (also JSON-escaped quotes, as in a command line), or up to the next space or delimiter. */
const SECRET_VALUE = String.raw`(\\"[^"\\\n]{4,}\\"|"[^"\n]{4,}"|'[^'\n]{4,}'|[^\s"'\`,;&|)}\]\\]{4,})`;

const PATTERNS: Pattern[] = [
  { label: "private key", re: /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g },
  // A key block cut short (a truncated paste, a command line): everything that still looks like key material.
  { label: "private key", re: /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s:-]|\\n)*/g },
  { label: "AWS access key id", re: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g },
  { label: "AWS secret access key", re: /((?:aws)?_?secret_?access_?key["']?\s*[:=\s]\s*["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi, keep: 1 },
  { label: "GitHub token", re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,255}\b/g },
  { label: "GitHub token", re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { label: "GitLab token", re: /\bgl(?:pat|ptt|dt|rt|oas)-[A-Za-z0-9_-]{20,}/g },
  { label: "Slack token", re: /\bxox[abprse]-[A-Za-z0-9-]{10,}/g },
  { label: "Slack webhook", re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]+/g },
  { label: "Stripe key", re: /\b(?:sk|rk|whsec)_(?:live|test)_[A-Za-z0-9]{10,}\b/g },
  // Before OpenAI's: both start with sk-.
  { label: "Anthropic key", re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  // A digit required: kebab-case words after "sk-" are not keys.
  { label: "OpenAI key", re: /\bsk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g },
  { label: "SendGrid key", re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  { label: "npm token", re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { label: "Google API key", re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { label: "Baton token", re: /\bbaton_[A-Za-z0-9_-]{32,}/g },
  { label: "JWT", re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { label: "Azure key", re: /\b((?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=)[A-Za-z0-9%+/=_-]{16,}/g, keep: 1 },
  { label: "bearer token", re: /\b(Bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/g, keep: 1 },
  // scheme://user:password@host keeps the scheme and the user.
  // The user may be empty (redis://:password@host).
  { label: "password", re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@"'<>]*:)[^\s@/"'<>]+(?=@)/gi, keep: 1 },
  // Prose says "the token expired": only an assignment or a command-line flag names a value.
  { label: "secret", re: new RegExp(String.raw`((?<![A-Za-z0-9])\\?["']?${SECRET_NAME}\\?["']?\s*(?:=|:(?!//))\s*)${SECRET_VALUE}`, "gi"), keep: 1, named: true },
  { label: "secret", re: new RegExp(String.raw`((?<![\w-])--${SECRET_NAME}(?:=|\s+))${SECRET_VALUE}`, "gi"), keep: 1, named: true },
];

/** Values after a secret-looking name that are no secret: a variable reference, a placeholder, a marker of ours. */
const NOT_A_VALUE = /^["']?(?:\$|<|\[withheld|\[private|\*{3}|%\w+%|process\.env|os\.environ|env\(|secrets\.)|…/i;
/**
 * Code that names a secret without holding one: `token: string`, `password: params.passwordHash`,
 * `secret = generateSecret()`, `token={state.token}`, `TOKEN_CACHE_MS = 5000`. A secret has digits or
 * symbols; a type, identifier, member expression, call or short number does not.
 */
const CODE_VALUE = /^(?:[A-Za-z_$]+(?:\.[A-Za-z_$]+)*|\d{1,7}|[A-Za-z_$][\w$.]*[(<].*|\{.*)$/;
/** A quoted prefix (`TOKEN_PREFIX = "baton_"`) names a token's shape, not a token. */
const QUOTED_WORD = /^\\?["'][A-Za-z]{1,11}[_-]\\?["']$/;
const notAValue = (value: string) => NOT_A_VALUE.test(value) || CODE_VALUE.test(value) || QUOTED_WORD.test(value);

const PRIVATE_BLOCK = /<private>[\s\S]*?(?:<\/private>|$)/gi;
export const PRIVATE_MARKER = "[private: withheld]";
const marker = (label: string) => `[withheld: ${label}]`;
/** The markers redaction leaves, for text that is searched rather than read (a prompt sent as a hint). */
export const REDACTION_MARKERS = /\[(?:withheld: [^\]]{1,40}|private: withheld)\]/g;

/** Replaces the spans the generic rule found, right to left so earlier offsets hold; overlaps merge. */
function withholdInProse(text: string, secrets: Set<string>): string {
  const spans = secretsInProse(text).sort((a, b) => b.start - a.start);
  let out = text;
  let floor = Infinity;
  for (const span of spans) {
    const end = Math.min(span.end, floor);
    if (end <= span.start) continue;
    secrets.add(text.slice(span.start, end));
    out = out.slice(0, span.start) + marker(span.label) + out.slice(end);
    floor = span.start;
  }
  return out;
}

/**
 * Redacts every text it is given and counts what it withheld across them all: distinct secrets and
 * private blocks (the same token pasted five times is one).
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();
  private readonly privateBlocks = new Set<string>();

  text(input: string): string {
    let out = input.replace(PRIVATE_BLOCK, (block) => {
      this.privateBlocks.add(block);
      return PRIVATE_MARKER;
    });
    for (const { label, re, keep, named } of PATTERNS) {
      out = out.replace(re, (match: string, ...groups: unknown[]) => {
        const kept = keep ? String(groups[keep - 1] ?? "") : "";
        const secret = match.slice(kept.length);
        if (named && notAValue(secret)) return match;
        this.secrets.add(secret);
        return kept + marker(label);
      });
    }
    return withholdInProse(out, this.secrets);
  }

  /** Every string inside a JSON-like value, redacted; the shape is kept. */
  deep<T>(value: T): T {
    if (typeof value === "string") return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.deep(v)) as T;
    // Plain objects only: a Date or a Map keeps what it is.
    if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.deep(v)])) as T;
    return value;
  }

  get counts(): { secrets: number; privateBlocks: number } {
    return { secrets: this.secrets.size, privateBlocks: this.privateBlocks.size };
  }

  /** One line for the handoff, e.g. "2 secrets and 1 private block withheld by baton.", or null when nothing was. */
  summary(): string | null {
    const { secrets, privateBlocks } = this.counts;
    const parts = [secrets ? `${secrets} secret${secrets === 1 ? "" : "s"}` : null, privateBlocks ? `${privateBlocks} private block${privateBlocks === 1 ? "" : "s"}` : null].filter(Boolean);
    return parts.length ? `${parts.join(" and ")} withheld by baton.` : null;
  }
}

declare const redacted: unique symbol;
/** A value whose strings went through a SecretRedactor: the only kind the spool accepts. */
export type Redacted<T> = T & { readonly [redacted]: true };

export function redactValue<T>(redactor: SecretRedactor, value: T): Redacted<T> {
  return redactor.deep(value) as Redacted<T>;
}
