import { describe, expect, it } from "vitest";
import { SecretRedactor } from "@/lib/secrets/redact-secrets";
import { withholdSecrets } from "@/lib/secrets/withhold-secrets";

// Leaks a tester reproduced through the real hooks (transcript → handoff, proposal, evidence, model), and
// ordinary lines the redactor withheld from a handoff. Values are made up and assembled from parts so this
// file does not look like a leak to a secret scanner.
const awsId = (tail: string) => "AK" + "IA" + tail;
const vault = (kind: "s" | "b" | "r", body: string) => "hv" + kind + "." + body;
const b64 = (text: string) => Buffer.from(text).toString("base64");
const dsn = b64("postgres://app:" + "K8sSecretPw-5521" + "@db.internal:5432/app");
const telegram = "123456789:" + "AA" + "HdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
/** `base64 .env` as GNU base64 prints it (76 a line): the database URL's password straddles lines 1 and 2. */
const envFile = "NOTE=ordinary config for the staging box\nDB=postgres://a" + "pp:K8sSecretPw-5521@db.internal:5432/app\nMODE=fast\nREGION=eu-west-1\n";
const wrapped = (text: string, width: number) => b64(text).match(new RegExp(`.{1,${width}}`, "g"))!.join("\n");
/** `base64 -w0 .env` (macOS's base64 prints one line too) of an .env past 4 KB: the keys first, then flags. */
const longEnv = ["AWS_ACCESS_KEY_ID=" + awsId("IOSFODNN7EXAMPLE"), "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ...Array.from({ length: 150 }, (_, i) => `FEATURE_FLAG_${i}=enabled_for_cohort_${i % 7}`)].join("\n");

describe("leaks reproduced through the hooks", () => {
  it.each([
    ["a quoted password after 'password is'", 'my password is "Velvet-Quoted-77" for the staging console', "Velvet-Quoted-77"],
    ["a quoted password after 'db password is'", 'the staging db password is "Remember-Pw-5150"', "Remember-Pw-5150"],
    ["a quoted password right after 'password'", 'rotate the staging password "LastMsg-Pw-9090"', "LastMsg-Pw-9090"],
    ["a quoted passphrase of words after 'password is'", 'the staging db password is "correct horse battery staple"', "correct horse battery staple"],
    ["a quoted passphrase after 'password is now'", 'the vpn password is now "Blue Fox 7 Runs" for everyone', "Blue Fox 7 Runs"],
    ["a quoted passphrase after 'changed the password to'", 'I changed the password to "tulip seven harbor light"', "tulip seven harbor light"],
    ["a quoted passphrase right after 'passphrase'", 'the key\'s passphrase "amber wolf river stone" is in the vault', "amber wolf river stone"],
    ["a quoted passphrase after a --passphrase flag", 'gpg --batch --passphrase "amber wolf river stone" -d backup.gpg', "amber wolf river stone"],
    ["a token alone as a URL's user", "https://4f2b1c9a8e7d6c5b4a39281706f5e4d3a1b2c9e8@github.com/acme/web.git", "4f2b1c9a8e7d6c5b4a39281706f5e4d3a1b2c9e8"],
    ["a Vault service token", `vault login ${vault("s", "CAESIJ9zK2mN7pR4tV8wY1bQx3cF6hJ0kL5nP8sU2vX4zA7dG9jM")}`, vault("s", "CAESIJ9zK2mN7pR4tV8wY1bQx3cF6hJ0kL5nP8sU2vX4zA7dG9jM")],
    ["a Vault batch token", `token ${vault("b", "AAAAAQJzL8xKq2Wm9Rt4Vn7Yb3Cd6Ef1Gh5J")}`, vault("b", "AAAAAQJzL8xKq2Wm9Rt4Vn7Yb3Cd6Ef1Gh5J")],
    ["a Vault recovery token", `used ${vault("r", "Qm3Xk8Lp2Vn7Rt4Wb9Yc6Zd1")}`, vault("r", "Qm3Xk8Lp2Vn7Rt4Wb9Yc6Zd1")],
    ["a legacy Vault token", "vault login s." + "Xk9mQ2pL7vN4rT8wB3cF6hJ1", "s." + "Xk9mQ2pL7vN4rT8wB3cF6hJ1"],
    ["htpasswd -b's last argument", "htpasswd -b -c .htpasswd admin Ht-cx-Apache-31", "Ht-cx-Apache-31"],
    ["an AWS secret key beside its key id (create-access-key's text)", `ACCESSKEY\t${awsId("Q7RZ3MX5PK2LWN4B")}\t2026-11-20T10:00:00+00:00\twJalrXUtnFEMI/K7MDENG/bPxRfiCYq1w2e3r4t5\tActive\tci-deployer`, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYq1w2e3r4t5"],
    ["an AWS secret key beside its key id (the console's CSV)", `ci-deployer,,${awsId("Z3J8W2XQ5N7RTY6M")},kT9mP2qL8vN4xR7wB1nC5dF3hJ6gY0zA2sD4fG6h,https://123456789012.signin.aws.amazon.com/console`, "kT9mP2qL8vN4xR7wB1nC5dF3hJ6gY0zA2sD4fG6h"],
    ["base64 of a database URL with its password (a Kubernetes Secret)", `  DATABASE_URL: ${dsn}`, dsn],
    ["wrapped base64 of an .env, the password across two lines (GNU base64)", `$ base64 .env\n${wrapped(envFile, 76)}\n`, wrapped(envFile, 76).split("\n")[1]!],
    ["wrapped base64 of an .env, indented, CRLF, 64 a line (openssl base64)", `  data: |\r\n    ${wrapped(envFile, 64).split("\n").join("\r\n    ")}\r\n`, wrapped(envFile, 64).split("\n")[1]!],
    ["one line of base64 of an .env past 4,096 characters (base64 -w0)", `$ base64 -w0 .env\n${b64(longEnv)}\n`, b64(longEnv).slice(0, 60)],
    ["a name ending in _PW", "ADMIN_PW=Adm1n-Str0ng-44", "Adm1n-Str0ng-44"],
    ["a Telegram bot token", `TELEGRAM_BOT=${telegram}`, telegram],
    ["a Telegram bot token in its URL", `curl https://api.telegram.org/bot${telegram}/getMe`, telegram],
    ["openssl -k", "openssl enc -aes-256-cbc -in a.tar -out a.enc -k Op3nSsl-Pw-77", "Op3nSsl-Pw-77"],
    ["openssl -pass pass:", "openssl rsa -in enc.key -passin pass:simplepassword -out key.pem", "simplepassword"],
    // A review's counter-examples to the rules that leave ordinary lines alone: each of these is a secret.
    ["a password that repeats a word of its name", "POSTGRES_PASSWORD=postgres-dev-2024", "postgres-dev-2024"],
    ["a password of its name's words and one more", "MYSQL_ROOT_PASSWORD=mysql-root-pw", "mysql-root-pw"],
    ["a secret that repeats its name's words", "JWT_SECRET=acme-jwt-secret-2024", "acme-jwt-secret-2024"],
    ["a short password after AUTH", "BASIC_AUTH=admin:letmein", "admin:letmein"],
    ["a short secret after AUTH", "REDIS_AUTH=s3cret1", "s3cret1"],
    ["a secret after PowerShell's $env:", '$env:SECRET = "correct-horse-staple-9"', "correct-horse-staple-9"],
    ["an API key after PowerShell's $env:", '$env:API_KEY = "Sup3r-Secret-Key!"', "Sup3r-Secret-Key!"],
  ])("withholds %s", (_name, text, secret) => {
    for (const out of [new SecretRedactor().text(text), withholdSecrets(text)]) expect(out).not.toContain(secret);
  });

  it("keeps what is not the secret: the words around a quoted password, a URL's host, htpasswd's user, the key id's column", () => {
    const r = new SecretRedactor();
    expect(r.text('my password is "Velvet-Quoted-77" for the staging console')).toBe('my password is "[withheld: password]" for the staging console');
    expect(r.text('the password was "correct horse battery staple" until today')).toBe('the password was "[withheld: password]" until today');
    expect(r.text("https://4f2b1c9a8e7d6c5b4a39281706f5e4d3a1b2c9e8@github.com/acme/web.git")).toBe("https://[withheld: token]@github.com/acme/web.git");
    expect(r.text("htpasswd -b -c .htpasswd admin Ht-cx-Apache-31")).toBe("htpasswd -b -c .htpasswd admin [withheld: password]");
    expect(r.text(`  DATABASE_URL: ${dsn}`)).toBe("  DATABASE_URL: [withheld: encoded secret]");
    expect(r.text(`$ base64 .env\n${wrapped(envFile, 76)}\nDone.`)).toBe("$ base64 .env\n[withheld: encoded secret]\nDone.");
  });
});

describe("secrets written in other languages than English (a tester's team)", () => {
  const pw = "Plum-" + "Velvet-93";
  const key = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYq1w2e3r4t5";
  it.each([
    `Das Passwort für die Staging-Datenbank ist ${pw}!`,
    `Kennwort=${pw}`,
    `Le mot de passe de la base de staging est ${pw}`,
    `La contraseña de la base de datos es ${pw}`,
    `A senha do banco é ${pw}`,
    `Het wachtwoord is ${pw}`,
    `Hasło do bazy: ${pw}`,
    `Пароль от базы: ${pw}`,
    `Veritabanı şifresi: ${pw}`,
    `本番DBのパスワードは${pw}です。`,
    `数据库密码：${pw}`,
    `데이터베이스 비밀번호는 ${pw}`,
    `my password for the staging admin is ${pw}`,
    `Der geheime Schlüssel lautet ${key}`,
    `La clé secrète : ${key}`,
    `本番のシークレットは${key}です`,
  ])("withholds the secret in %s", (text) => {
    for (const out of [new SecretRedactor().text(text), withholdSecrets(text)]) {
      expect(out).not.toContain(pw);
      expect(out).not.toContain(key);
    }
  });

  it("keeps the words around it, and lines about passwords that hold none", () => {
    expect(new SecretRedactor().text(`本番DBのパスワードは${pw}です。`)).toBe("本番DBのパスワードは[withheld: password]です。");
    expect(new SecretRedactor().text(`Das Passwort für die Staging-Datenbank ist ${pw}!`)).toBe("Das Passwort für die Staging-Datenbank ist [withheld: password]");
    for (const line of [
      "Das Passwort muss mindestens 12 Zeichen lang sein.",
      "Le mot de passe est dans le coffre-fort, pas dans le dépôt.",
      "La contraseña se cambia cada 90 días.",
      "Passwort-Reset-Link läuft nach 15 Minuten ab.",
      "パスワードはVaultに保存されています。",
      "비밀번호는 1Password에 있습니다.",
      "密码：见 1Password 的 staging 条目",
      "The password for the admin is stored in Vault.",
      "Die Schlüssel-ID ist 3f9a1c7e-5b2d-8f4a-6c0e-9b1d3f5a7c9e",
    ]) expect(new SecretRedactor().text(line)).toBe(line);
  });
});

describe("ordinary lines once withheld from a handoff", () => {
  it.each([
    "See docs/runbooks/access-key-rotation-2024Q3.md to rotate the key.",
    "ACCESS_TOKEN_LIFETIME=900s",
    "ACCESS_TOKEN_LIFETIME=900s JWT_EXPIRES_IN=15m REFRESH_TOKEN_TTL=30d",
    'auth: "oauth2"',
    'api_key_header = "x-api-key"',
    "Refund customer cus_PqR8sT1vW4yZ7b with the restricted key, not the secret key.",
    "Cache restored from key: node-modules-Linux-0c030586945fe504b604ecc2e875c38ede400cd5cd73da9730302162e6b02c6f",
    "Verify the webhook secret against the X-Hub-Signature-256 header before parsing the body.",
    '<li key="item-447b7147e84be512208dcc0995d67ebc">{item.title}</li>',
    "SecretId: arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
    "aws secretsmanager get-secret-value --secret-id arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
    "vercel inspect dpl_4xKq9ZbT2mN7vR8wP3sL1yH6 --token $VERCEL_TOKEN",
    'The login form\'s password field shows "Forgot your password?" under it.',
    'the password is "too short" says the form',
    // Wrapped base64 of ordinary text, and of bytes (a certificate's body): nothing secret in either.
    `$ base64 notes.txt\n${wrapped("The staging box runs the nightly import at 02:00 UTC and mails the report to the team. ".repeat(3), 76)}`,
    `-----BEGIN CERTIFICATE-----\n${Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 73 + 41) % 256)).toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----`,
  ])("leaves %j alone", (text) => {
    const redactor = new SecretRedactor();
    expect(redactor.text(text)).toBe(text);
    expect(redactor.summary()).toBeNull();
  });
});
