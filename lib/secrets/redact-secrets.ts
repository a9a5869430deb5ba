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
import { secretsInProse, tokenShaped } from "./secret-in-prose";

/**
 * A credential shape: `label` names it in the marker; `keep` is a capture group kept verbatim (a name, a
 * scheme); `check` says whether what follows the kept part is a value (not `$VAR`, a type, a placeholder);
 * `when`, a cheap search the text must pass first, spares ordinary text a costly pattern.
 */
type Pattern = { label: string; re: RegExp; keep?: number; check?: (value: string, kept: string) => boolean; when?: RegExp };

/** Names whose value is a secret in `NAME=value`, `"name": "value"`, `name: value` and `--name value`. */
const SECRET_WORDS = String.raw`(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?|session[_-]?key|signing[_-]?key|encryption[_-]?key)`;
/**
 * The word may sit inside a longer name (DB_PASSWORD, github_token_prod) but must end a segment:
 * "tokenizer" is no secret. Bounded, so a long run of name characters cannot make the search quadratic.
 */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]{0,40}?${SECRET_WORDS}(?:[_.-][A-Za-z0-9_.-]{0,40})?(?![A-Za-z0-9])`;
/**
 * Short words name a secret only as a whole last segment after "_" (DB_PASS, MY_PWD, ADMIN_PW, AUTH,
 * npmrc's `_auth`): "bypass", AUTHORS, `author:`, `--pass-with-no-tests`, AUTH_URL and "better-auth" are no secret.
 */
const SHORT_SECRET_NAME = String.raw`(?<![A-Za-z0-9.-])(?:pass|pwd|pw|auth)(?![A-Za-z0-9_.-])`;
/** A value: quoted (also JSON-escaped quotes, as in a command line), or up to the next space or delimiter. */
const SECRET_VALUE = String.raw`(\\"[^"\\\n]{4,}\\"|"[^"\n]{4,}"|'[^'\n]{4,}'|[^\s"'\`,;&|)}\]\\]{4,})`;
/** A value on a command line, quoted or not. */
const ARGUMENT = String.raw`(?:'[^'\n]+'|"[^"\n]+"|[^\s"'\`;&|)]+)`;
/** `NAME=value`, `"name": "value"`, `name: value`: an assignment names a value, prose ("the token expired") does not. */
const assignment = (name: string) => new RegExp(String.raw`(${name}\\?["']?\s*(?:=|:(?!//))\s*)${SECRET_VALUE}`, "gi");
/** What runs before a command's own flags, on the same command line (bounded). */
const FLAGS_OF = (command: string) => String.raw`\b${command}\b[^\n|;&]{0,160}?\s`;
/**
 * `htpasswd -b` takes the password as its last argument, after the file (none with -n) and the user:
 * `htpasswd -b -c .htpasswd admin PW`, `htpasswd -nb ops PW`. Flags may carry a number (`-C 12`).
 */
const HTPASSWD_FLAGS = String.raw`(?:\s+-[A-Za-z]+(?:\s+\d+)?)*`;
const HTPASSWD = (arguments_: number, withN: boolean) =>
  String.raw`\bhtpasswd(?=${HTPASSWD_FLAGS}\s+-[A-Za-z]*b)(?${withN ? "=" : "!"}${HTPASSWD_FLAGS}\s+-[A-Za-z]*n)${HTPASSWD_FLAGS}(?:\s+${ARGUMENT}){${arguments_}}\s+`;
/**
 * A password on a command line, after what stays: `curl -u user:` (or `--user`), `mysql … -p` glued to
 * it (`-p` alone asks, `-P 3306` is a port), `sshpass -p`, `docker login … -p` (or `--password`).
 */
const PASSWORD_FLAG = [
  String.raw`${FLAGS_OF("curl")}(?:-[A-Za-z]*u|--user)(?:[ \t]*|=)["']?[^\s:"'@]+:`,
  String.raw`${FLAGS_OF("(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlpump|mariadb(?:-dump|-admin)?)")}-p`,
  String.raw`\bsshpass(?:\s+-v)*\s+-p\s*`,
  String.raw`${FLAGS_OF("(?:docker|podman|buildah|skopeo|nerdctl)\\s+login")}(?:-p|--password)(?:\s+|=)`,
  HTPASSWD(1, true),
  HTPASSWD(2, false),
  // `openssl enc -k PW`, `-pass pass:PW` (also -passin, -passout); `-pass env:VAR` names where it is.
  String.raw`${FLAGS_OF("openssl")}(?:-k\s+|-pass(?:in|out)?\s+pass:)`,
].join("|");

/**
 * Values after a secret-looking name that are no secret: a variable reference, a placeholder, a marker of
 * ours, an elided value (`…`, `baton_…`). Only at the start: a value cut short (`S3cr3t99…`) is a secret.
 */
const NOT_A_VALUE = /^\\?["']?(?:\$|<|\[withheld|\[private|\*{3}|%\w+%|process\.env|os\.environ|env\(|secrets\.|arn:|…|[A-Za-z]{1,11}[_-]…)/i;
/**
 * Code that names a secret without holding one: `token: string`, `password: params.passwordHash`,
 * `secret = generateSecret()`, `token={state.token}`, `TOKEN_CACHE_MS = 5000`. A secret has digits or
 * symbols; a type, identifier, member expression, call or short number does not.
 */
const CODE_VALUE = /^(?:[A-Za-z_$]+(?:\.[A-Za-z_$]+)*|\d{1,7}|[A-Za-z_$][\w$.]*[(<].*|\{.*)$/;
/** A duration or a size, quoted or not (`ACCESS_TOKEN_LIFETIME=900s`, `TOKEN_TTL: "15m"`, `KEY_CACHE=64MB`). */
const AMOUNT = /^\\?["']?\d{1,7}(?:\.\d{1,3})?(?:ms|[smhdwy]|mo|mins?|secs?|days?|hours?|[kKMGT]i?B?|%)\\?["']?$/;
/**
 * A name that says it holds another thing's name (`api_key_header`, `TOKEN_COOKIE_NAME`, `secret_param`):
 * its last word is one of these. A name ending in the secret's own word (`ROOT_PASSWORD`, `sessionKey`)
 * holds the secret.
 */
const NAMING_WORDS = new Set(["header", "name", "field", "param", "parameter", "cookie", "prefix", "env", "var", "variable", "path", "file", "label", "attr", "attribute", "column", "arg"]);
/**
 * A value that names a thing (a header, a cookie, a field), in lower case words joined by - . or _, every
 * one of two letters or more a word of its name, under a name that says it holds a name:
 * `api_key_header = "x-api-key"`. `POSTGRES_PASSWORD=postgres-dev-2024` and `JWT_SECRET=acme-jwt-secret`
 * are secrets: their names hold the secret itself, and their values say more than the name.
 */
function namesItself(value: string, name: string): boolean {
  const segments = /^\\?["']?([a-z][a-z0-9]*(?:[-._][a-z0-9]+)+)\\?["']?$/.exec(value)?.[1]?.split(/[-._]/);
  if (!segments) return false;
  const nameWords = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  if (!NAMING_WORDS.has(nameWords.at(-1) ?? "")) return false;
  return segments.every((segment) => segment.length < 2 || nameWords.includes(segment));
}
/** A quoted prefix (`TOKEN_PREFIX = "baton_"`) names a token's shape, not a token. */
const QUOTED_WORD = /^\\?["'][A-Za-z]{1,11}[_-]\\?["']$/;
const isArgument = (value: string) => !NOT_A_VALUE.test(value);
const isValue = (value: string, name = "") => isArgument(value) && !CODE_VALUE.test(value) && !QUOTED_WORD.test(value) && !AMOUNT.test(value) && !namesItself(value, name);
/** After a short password name (`pass: true`), a word of letters alone is a setting, not a secret. */
const isStrongValue = (value: string) => isValue(value) && !/^\\?["']?[A-Za-z]+\\?["']?$/.test(value);
/** A credential after a header name or a scheme: long enough, with a digit or a base64 symbol, or long and in mixed case ("Required" is a word). */
const isCredential = (value: string) => isArgument(value) && value.length >= 8 && (/[\d+/=]/.test(value) || (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value)));
/** What follows `auth` when it is a setting, not a secret: a scheme's or a mechanism's name. */
const AUTH_SCHEMES = /^\\?["']?(?:none|true|false|basic|bearer|digest|token|jwt|oauth[12]?|oidc|saml|sso|ldap|ntlm|negotiate|kerberos|gssapi|hmac|aws4|sigv4|iam|mtls|cert|trust|peer|ident|md5|scram-sha-(?:1|256)|password|session|cookie|api-?key|anonymous|required|optional)\\?["']?$/i;
/** After `auth` a value is a scheme (`"oauth2"`, `"basic"`), else a secret as after any short name (REDIS_AUTH=s3cret1). */
const isAuthValue = (value: string) => !AUTH_SCHEMES.test(value) && isStrongValue(value);

/**
 * A token right after a JSON-escaped newline or tab (`"creds:\nghp_…"`) is at a word's start too: the
 * escape's letter does not glue to it. Replaces the leading `\b` of a pattern.
 */
const TOKEN_START = String.raw`(?<![A-Za-z0-9_](?<!\\[nrt]))`;
const atTokenStart = (pattern: Pattern): Pattern => ({ ...pattern, re: new RegExp(pattern.re.source.replace(/^\\b/, TOKEN_START), pattern.re.flags) });
/** A key block's body: never another BEGIN, so a text of BEGIN lines without END is read once, not once per line. */
const KEY_BODY = String.raw`(?:(?!-----BEGIN)[\s\S])*?`;
const KEY_LINE = (edge: "BEGIN" | "END") => String.raw`-----${edge}[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`;

const AWS_KEY_ID = String.raw`(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}`;
/** Tokens whose shape says what they are, wherever they stand. */
const TOKENS: Pattern[] = [
  // A secret access key with no name on its line, beside its key id (create-access-key's text output, the
  // console's CSV): 40 characters of base64 in mixed case with a digit. Before the key id is withheld.
  {
    label: "AWS secret access key",
    re: new RegExp(String.raw`(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])(?:(?<=\b${AWS_KEY_ID}\b[^\n]{0,160})|(?=[^\n]{0,120}\b${AWS_KEY_ID}\b))`, "g"),
    check: (value) => /\d/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value),
    when: new RegExp(AWS_KEY_ID),
  },
  { label: "AWS access key id", re: new RegExp(String.raw`\b${AWS_KEY_ID}\b`, "g") },
  { label: "AWS secret access key", re: /((?:aws)?_?secret_?access_?key["']?\s*[:=\s]\s*["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi, keep: 1 },
  { label: "GitHub token", re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,255}\b/g },
  { label: "GitHub token", re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { label: "GitLab token", re: /\bgl(?:pat|ptt|dt|rt|oas)-[A-Za-z0-9_-]{20,}/g },
  { label: "Slack token", re: /\bxox[abprse]-[A-Za-z0-9-]{10,}/g },
  { label: "Slack webhook", re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]+/g },
  { label: "Stripe key", re: /\b(?:sk|rk|whsec)_(?:live|test)_[A-Za-z0-9]{10,}\b/g },
  // A webhook signing secret has no mode: whsec_ and 20 or more random characters.
  { label: "Stripe key", re: /\bwhsec_[A-Za-z0-9+/]{20,}={0,2}/g },
  // Before OpenAI's: both start with sk-.
  { label: "Anthropic key", re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  // A digit required: kebab-case words after "sk-" are not keys.
  { label: "OpenAI key", re: /\bsk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g },
  { label: "SendGrid key", re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  { label: "npm token", re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { label: "Google API key", re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { label: "Baton token", re: /\bbaton_[A-Za-z0-9_-]{32,}/g },
  // Providers' documented prefixes (as gitleaks' rules read them), each followed by its random part.
  { label: "Hugging Face token", re: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { label: "Google OAuth token", re: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { label: "Shopify token", re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { label: "DigitalOcean token", re: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { label: "PyPI token", re: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g },
  { label: "Databricks token", re: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { label: "Linear key", re: /\blin_api_[A-Za-z0-9]{40}\b/g },
  { label: "Supabase token", re: /\bsbp_[a-f0-9]{40}\b/g },
  { label: "Groq key", re: /\bgsk_[A-Za-z0-9]{48,}\b/g },
  { label: "Replicate token", re: /\br8_[A-Za-z0-9]{37}\b/g },
  { label: "Grafana token", re: /\bgl(?:sa|c)_[A-Za-z0-9+/_]{32,}={0,2}/g },
  { label: "Postman key", re: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/gi },
  { label: "age secret key", re: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g },
  { label: "Notion token", re: /\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})\b/g },
  { label: "Heroku key", re: /\bHRKU-[A-Za-z0-9_-]{40,}/g },
  { label: "Slack token", re: /\bxapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}\b/g },
  { label: "Atlassian token", re: /\bATATT3[A-Za-z0-9_=-]{60,}/g },
  { label: "Sentry token", re: /\b(?:sntrys_eyJ[A-Za-z0-9+/_=-]{20,}|sntryu_[a-f0-9]{64}\b)/g },
  { label: "New Relic key", re: /\bNRA[AKI]-[A-Z0-9]{27}\b/g },
  { label: "1Password token", re: /\bops_eyJ[A-Za-z0-9+/_=-]{20,}/g },
  { label: "Fly.io token", re: /\b(?:fo1_[A-Za-z0-9_-]{39,}|fm[12][ar]?_[A-Za-z0-9+/_=-]{50,})/g },
  { label: "Pulumi token", re: /\bpul-[a-f0-9]{40}\b/g },
  { label: "Terraform Cloud token", re: /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}/g },
  { label: "Figma token", re: /\bfigd_[A-Za-z0-9_-]{38,}/g },
  { label: "Mapbox token", re: /\bsk\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  { label: "Perplexity key", re: /\bpplx-[A-Za-z0-9]{40,}\b/g },
  { label: "xAI key", re: /\bxai-[A-Za-z0-9]{60,}\b/g },
  { label: "Buildkite token", re: /\bbkua_[a-f0-9]{40}\b/g },
  { label: "CircleCI token", re: /\bCCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}\b/g },
  { label: "Discord webhook", re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{40,}/g },
  // HashiCorp Vault: service, batch and recovery tokens, and the legacy service token (s. and 24 characters).
  { label: "Vault token", re: /\b(?:hv[sbr]\.[A-Za-z0-9_-]{20,}|s\.(?=[A-Za-z0-9]{0,23}\d)(?=[A-Za-z0-9]{0,23}[A-Z])(?=[A-Za-z0-9]{0,23}[a-z])[A-Za-z0-9]{24}(?![A-Za-z0-9_-]))/g },
  // A bot's id, a colon and its secret; in a bot URL it follows "bot" (api.telegram.org/bot123:AA…).
  { label: "Telegram bot token", re: /(?<!\d)\d{5,16}:A[A-Za-z0-9_-]{30,40}(?![A-Za-z0-9_-])/g },
  { label: "JWT", re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { label: "Azure key", re: /\b((?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=)[A-Za-z0-9%+/=_-]{16,}/g, keep: 1 },
  { label: "bearer token", re: /\b(Bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/g, keep: 1 },
];

const PATTERNS: Pattern[] = [
  { label: "private key", re: new RegExp(KEY_LINE("BEGIN") + KEY_BODY + KEY_LINE("END"), "g") },
  // A key block cut short (a truncated paste, a command line): everything that still looks like key material.
  { label: "private key", re: new RegExp(KEY_LINE("BEGIN") + String.raw`(?:[A-Za-z0-9+/=\s:-]|\\[nr])*`, "g") },
  ...TOKENS.map(atTokenStart),
  // Any scheme (Basic, token, Digest, none) keeps the header and the scheme.
  { label: "credential", re: /(?<![\w-])((?:Proxy-)?Authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:[A-Za-z][\w.-]*[ \t]+)?)[A-Za-z0-9._~+/=:-]+/gi, keep: 1, check: isCredential },
  // A cookie header's pairs, to the end of the header.
  { label: "cookie", re: /(?<![\w-])((?:Set-)?Cookie\\?["']?[ \t]*:[ \t]*\\?["']?)[!#$%&*+.^_|~0-9A-Za-z-]+=[^\r\n"'\\]+/gi, keep: 1, check: isArgument },
  // scheme://user:password@host keeps the scheme and the user. The user may be empty (redis://:password@host);
  // the password runs to the last "@" of the authority (a raw "@" in it, as withoutCredentials reads it).
  { label: "password", re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@"'<>]*:)[^\s/?#"'<>]+(?=@)/gi, keep: 1 },
  // A token alone as the user (https://<token>@github.com/…, as git and pip take it); a name stays.
  { label: "token", re: /\b([a-z][a-z0-9+.-]{0,30}:\/\/)[A-Za-z0-9_~.-]{16,}(?=@)/gi, keep: 1, check: tokenShaped, when: /:\/\/[^\s/@]{16,}@/ },
  { label: "password", re: new RegExp(String.raw`(${PASSWORD_FLAG})${ARGUMENT}`, "g"), keep: 1, check: isArgument },
  // <password>…</password> and the like in XML (Maven's settings.xml, .NET config).
  { label: "secret", re: new RegExp(String.raw`(<(${SECRET_NAME}|${SHORT_SECRET_NAME})>)[^<\n]{1,200}(?=</\2>)`, "gi"), keep: 1, check: isValue },
  // Prose says "the token expired": only an assignment or a command-line flag names a value.
  // Not inside an ARN: `arn:aws:secretsmanager:…:secret:prod/db-AbCdEf` is a path of names (PowerShell's
  // `$env:SECRET = "…"` is a secret).
  { label: "secret", re: assignment(String.raw`(?<![A-Za-z0-9])(?<!\barn:[^\s"'=]{0,160})\\?["']?${SECRET_NAME}`), keep: 1, check: isValue },
  { label: "secret", re: assignment(SHORT_SECRET_NAME), keep: 1, check: (value, kept) => (/auth/i.test(kept) ? isAuthValue(value) : isStrongValue(value)) },
  // `--password-stdin`, `--token-file PATH`: the flag names where the secret comes from.
  { label: "secret", re: new RegExp(String.raw`((?<![\w-])--${SECRET_NAME}(?<![_-](?:stdin|file|env))(?:=|\s+))${SECRET_VALUE}`, "gi"), keep: 1, check: isValue },
];

const PRIVATE_BLOCK = /<private>[\s\S]*?(?:<\/private>|$)/gi;
export const PRIVATE_MARKER = "[private: withheld]";
const marker = (label: string) => `[withheld: ${label}]`;
/** The markers redaction leaves, for text that is searched rather than read (a prompt sent as a hint). */
export const REDACTION_MARKERS = /\[(?:withheld: [^\]]{1,40}|private: withheld)\]/g;

/** Replaces the spans the generic rule found, right to left so earlier offsets hold; overlaps merge. */
function withholdInProse(text: string, secrets: Set<string>): string {
  const spans = secretsInProse(text, (decoded) => new SecretRedactor().text(decoded) !== decoded).sort((a, b) => b.start - a.start);
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
    for (const { label, re, keep, check, when } of PATTERNS) {
      if (when && !when.test(out)) continue;
      out = out.replace(re, (match: string, ...groups: unknown[]) => {
        const kept = keep ? String(groups[keep - 1] ?? "") : "";
        const secret = match.slice(kept.length);
        if (check && !check(secret, kept)) return match;
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
