import { describe, expect, it } from "vitest";
import { SecretRedactor } from "@/lib/secrets/redact-secrets";
import { withholdSecrets } from "@/lib/secrets/withhold-secrets";
import { toolCall, MAX_TOOL_OUTPUT } from "@/cli/src/agents/session";

// Credential shapes the named patterns missed (audit of session 20): each must be withheld by the CLI at
// home and by the server's withholdSecrets alike; the text around it, the header, the user and the
// scheme stay. Values are assembled so this file does not look like a leak to a secret scanner.
const b64 = "YWxpY2U6UzNj" + "cjN0UGFzc3cwcmQ=";
const hex40 = "0123456789abcdef" + "0123456789abcdef01234567";
const ghp = "gh" + "p_abcdefghijklmnopqrstuvwxyz0123456789";

describe("credential shapes beyond NAME=value", () => {
  it.each([
    ["Authorization: Basic", `curl -H 'Authorization: Basic ${b64}' https://api.example.com`, b64, "Authorization: Basic [withheld: credential]"],
    ["Authorization: token", `curl -H "Authorization: token ${hex40}" https://api.github.com`, hex40, "Authorization: token [withheld: credential]"],
    ["Authorization without a scheme", "Authorization: 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0", "Authorization: [withheld: credential]"],
    ["a short Bearer token", "Authorization: Bearer abc123XYZ", "abc123XYZ", "Authorization: Bearer [withheld: credential]"],
    ["Proxy-Authorization", `Proxy-Authorization: Basic ${b64}`, b64, "Proxy-Authorization: Basic [withheld: credential]"],
    ["a header in JSON", `{"Authorization": "Basic ${b64}"}`, b64, `{"Authorization": "Basic [withheld: credential]"}`],
    ["a Cookie header", "curl -H 'Cookie: session=Zq8vN3kP2mL7wR4tY6uB; theme=dark' https://x", "Zq8vN3kP2mL7wR4tY6uB", "Cookie: [withheld: cookie]' https://x"],
    ["a Set-Cookie header", "Set-Cookie: sid=s%3AZq8vN3kP2mL7wR4t; Path=/; HttpOnly", "s%3AZq8vN3kP2mL7wR4t", "Set-Cookie: [withheld: cookie]"],
    ["curl -u", "curl -u alice:S3cr3tPassw0rd https://api.example.com", "S3cr3tPassw0rd", "curl -u alice:[withheld: password] https://"],
    ["curl --user", "curl -s --user admin:hunter2hunter2 https://api.example.com", "hunter2hunter2", "--user admin:[withheld: password] https://"],
    ["mysql -p glued", "mysql -u root -pS3cr3tPass99 app < dump.sql", "S3cr3tPass99", "mysql -u root -p[withheld: password] app"],
    ["mysqldump -p quoted", "mysqldump -h db -u app -p'Pl4in!pass' app", "Pl4in!pass", "-p[withheld: password] app"],
    ["sshpass -p", "sshpass -p 'S3cr3tPass!' ssh deploy@host", "S3cr3tPass!", "sshpass -p [withheld: password] ssh"],
    ["docker login -p", "echo ok | docker login -u bob -p S3cr3tPass99 ghcr.io", "S3cr3tPass99", "-p [withheld: password] ghcr.io"],
    ["docker login --password", "docker login --password S3cr3tPass99 ghcr.io", "S3cr3tPass99", "--password [withheld: password] ghcr.io"],
    ["<password> in XML", "<server><password>Sup3rS3cret99</password></server>", "Sup3rS3cret99", "<password>[withheld: secret]</password>"],
    ["DB_PASS=", "DB_PASS=Zx9!qwerty77", "Zx9!qwerty77", "DB_PASS=[withheld: secret]"],
    ["MY_PWD=", "MY_PWD=Sup3rS3cret", "Sup3rS3cret", "MY_PWD=[withheld: secret]"],
    ["AUTH=", "AUTH=Zx9qwerty77abcdefgHIJ", "Zx9qwerty77abcdefgHIJ", "AUTH=[withheld: secret]"],
    ["npmrc _auth=", `//registry.example.com/:_auth=${b64}`, b64, "_auth=[withheld: secret]"],
    ["a Stripe webhook secret without a mode", "STRIPE_WEBHOOK=whsec_AbCdEf1234567890GhIjKlMn", "whsec_AbCdEf1234567890GhIjKlMn", "STRIPE_WEBHOOK=[withheld: Stripe key]"],
    ["a password with @ in a URL", "https://alice:p@ss:w0rd@host.example.com/x", "ss:w0rd", "https://alice:[withheld: password]@host.example.com/x"],
  ])("withholds %s", (_name, text, secret, kept) => {
    for (const out of [new SecretRedactor().text(text), withholdSecrets(text)]) {
      expect(out).not.toContain(secret);
      expect(out).toContain(kept);
    }
  });

  it.each([
    "please pass the tests before merging",
    "vitest run --pass-with-no-tests src/foo",
    "AUTHORS=docs/AUTHORS.md",
    "author: Jane Doe <jane@example.com>",
    "next dev -p 3000 && ssh -p 2222 host",
    "the Cookie header is dropped by the proxy; Cookie: none were set",
    "Authorization: see the docs. Authorization: Required",
    "auth: true and auth: \"basic\" and AUTH_URL=https://auth.example.com",
    '"better-auth": "1.7.25", "next-auth": "4.24.0"',
    "mysql -u root -p app; mysql --protocol=tcp -P 3306 app",
    "docker login --password-stdin ghcr.io; docker run -u 1000:1000 img; git push -u origin main",
    "curl -u $USER:$PASS https://x",
    "see the password-reset-flow doc",
  ])("leaves %j alone", (text) => {
    const redactor = new SecretRedactor();
    expect(redactor.text(text)).toBe(text);
    expect(redactor.summary()).toBeNull();
  });
});

describe("a token after a JSON-escaped newline or tab (written as text)", () => {
  const jwt = "eyJ" + "hbGciOiJIUzI1NiJ9.eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
  it.each([
    ["a GitHub token", String.raw`{"SecretString":"deploy creds:\n${ghp}\n"}`, ghp],
    ["an Anthropic key", String.raw`"key\tsk-ant-api03-abcdefghijklmnopqrstuvwxyz"`, "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"],
    ["an AWS key id", String.raw`"AKIA:\nAKIA${"IOSFODNN7EXAMPLE"}"`, "AKIAIOSFODNN7EXAMPLE"],
    ["a JWT", String.raw`"\n${jwt}"`, jwt],
    ["a Slack token", String.raw`"\r\nxoxb-1234567890-abcdefghij"`, "xoxb-1234567890-abcdefghij"],
    ["a GitLab token", String.raw`"\nglpat-abcdefghij1234567890"`, "glpat-abcdefghij1234567890"],
    ["a Stripe key", String.raw`"\tsk_live_abcdefghij1234567890"`, "sk_live_abcdefghij1234567890"],
  ])("withholds %s", (_name, text, secret) => {
    const out = new SecretRedactor().text(text);
    expect(out).not.toContain(secret);
    expect(out).toMatch(/\\[nrt]\[withheld: /);
  });
});

describe("a value cut short", () => {
  it("is a secret when it ends in an ellipsis; an elided placeholder is not", () => {
    const r = new SecretRedactor();
    expect(r.text("DB_PASSWORD=Sup3rS3cret99…")).toBe("DB_PASSWORD=[withheld: secret]");
    expect(r.text("api_key=AbCdEf123456GhIjKl7890…")).toBe("api_key=[withheld: secret]");
    const placeholders = "export BATON_TOKEN=baton_… and token: \"…\" and password=…";
    expect(new SecretRedactor().text(placeholders)).toBe(placeholders);
  });

  it("a tool's long output is cut apart from its last word, so a secret there is still withheld", () => {
    let output = "";
    for (let i = 0; output.length < MAX_TOOL_OUTPUT - 40; i++) output += `CONFIG_VALUE_${i}=on\n`;
    output += "DB_PASSWORD=Sup3rS3cret99\n" + "TRAILER=1\n".repeat(100);
    const call = toolCall("Bash", { command: "cat .env" }, null, { output });
    expect(call.output!.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT + 2);
    expect(call.output).toMatch(/ …$/);
    expect(new SecretRedactor().text(call.output!)).not.toContain("Sup3rS3cret99");
  });
});

describe("a key block without its end", () => {
  it("is read once, not once for every BEGIN line after it (1 MB of BEGIN lines)", () => {
    const text = "-----BEGIN RSA PRIVATE KEY-----\n".repeat((1 << 20) / 32);
    const started = performance.now();
    const out = new SecretRedactor().text(text);
    expect(performance.now() - started).toBeLessThan(500);
    expect(out).toBe("[withheld: private key]");
  });
});

// Providers' tokens by their documented prefixes: withheld wherever they stand, after a JSON-escaped
// newline too; lookalikes in prose and code stay. Assembled from parts, as above.
const r = (n: number, alphabet = "a1B2c3D4e5F6g7H8i9J0k") => Array.from({ length: n }, (_, i) => alphabet[(i * 7) % alphabet.length]).join("");
const hex = (n: number) => r(n, "0123456789abcdef");
describe("providers' tokens", () => {
  it.each([
    ["Hugging Face", "hf" + "_" + r(34)],
    ["Google OAuth access token", "ya" + "29." + r(40)],
    ["Shopify", "shp" + "at_" + hex(32)],
    ["DigitalOcean", "do" + "p_v1_" + hex(64)],
    ["PyPI", "pypi-" + "AgEIcHlwaS5vcmc" + r(60)],
    ["Databricks", "da" + "pi" + hex(32)],
    ["Linear", "lin" + "_api_" + r(40)],
    ["Supabase", "sb" + "p_" + hex(40)],
    ["Groq", "gs" + "k_" + r(52)],
    ["Replicate", "r8" + "_" + r(37)],
    ["Grafana service account", "gl" + "sa_" + r(32) + "_" + hex(8)],
    ["Postman", "PMAK-" + hex(24) + "-" + hex(34)],
    ["age", "AGE-SECRET-KEY-1" + r(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")],
    ["Notion (internal integration)", "sec" + "ret_" + r(43)],
    ["Notion", "nt" + "n_" + r(46)],
    ["Heroku", "HR" + "KU-" + r(60)],
    ["Slack app-level", "xa" + "pp-1-A0" + "B1C2D3E4F5-1234567890123-" + hex(64)],
    ["Atlassian", "ATA" + "TT3" + r(180)],
    ["Sentry organization", "sntr" + "ys_eyJ" + r(60)],
    ["Sentry user", "sntr" + "yu_" + hex(64)],
    ["New Relic", "NR" + "AK-" + r(27, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")],
    ["1Password service account", "op" + "s_eyJ" + r(80)],
    ["Fly.io", "fo" + "1_" + r(43)],
    ["Pulumi", "pu" + "l-" + hex(40)],
    ["Terraform Cloud", r(14) + ".atl" + "asv1." + r(67)],
    ["Figma", "fi" + "gd_" + r(40)],
    ["Mapbox secret", "sk" + ".eyJ" + r(60) + "." + r(22)],
    ["Perplexity", "pp" + "lx-" + r(48)],
    ["xAI", "xa" + "i-" + r(80)],
    ["Buildkite", "bk" + "ua_" + hex(40)],
    ["CircleCI", "CCI" + "PAT_" + r(22) + "_" + hex(40)],
    ["Discord webhook", "https://discord.com/api/web" + "hooks/123456789012345678/" + r(68)],
  ])("withholds a %s token, in prose and after an escaped newline", (_name, token) => {
    for (const text of [`export TOKEN_X=${token}`, `use ${token} here`, `{"note":"creds:\\n${token}"}`]) {
      for (const out of [new SecretRedactor().text(text), withholdSecrets(text)]) expect(out).not.toContain(token);
    }
  });

  it.each([
    "the hf_transfer package speeds up downloads",
    "shpat_ tokens are Shopify's admin tokens",
    "set ya29 aside",
    "r8_model_name is not a token",
    "the glc_ prefix is Grafana Cloud's",
    "dapi is Databricks' prefix",
    "a secret_key_base is Rails' own",
    "pul-request and xai-grok are names",
    "https://discord.com/api/webhooks/ takes the id and the token",
  ])("leaves alone: %s", (text) => {
    expect(new SecretRedactor().text(text)).toBe(text);
  });
});
