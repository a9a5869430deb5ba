import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";

/** Where the certificate (PEM, the server's first, then any intermediates) and its private key (PEM) are. */
export type TlsFiles = { certFile: string; keyFile: string };

/** What is wrong with one of the files, named by its variable, for the one startup line (lib/config.ts). */
export type TlsProblem = { variable: "BATON_TLS_CERT" | "BATON_TLS_KEY"; message: string };

/**
 * Reads both files once at startup and checks what would otherwise surface as a TLS handshake failure
 * in every client, long after the start looked fine: a path that cannot be read, a file that is not
 * PEM, a key that needs a passphrase, a key that belongs to another certificate. Null: all is well.
 */
export function checkTlsFiles(files: TlsFiles): TlsProblem | null {
  const cert = read("BATON_TLS_CERT", files.certFile);
  if ("problem" in cert) return cert.problem;
  const key = read("BATON_TLS_KEY", files.keyFile);
  if ("problem" in key) return key.problem;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert.text);
  } catch {
    return { variable: "BATON_TLS_CERT", message: `is not a PEM certificate (-----BEGIN CERTIFICATE-----): ${files.certFile}` };
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key.text);
  } catch (error) {
    const encrypted = /passphrase/i.test((error as Error).message);
    return {
      variable: "BATON_TLS_KEY",
      message: encrypted
        ? `is encrypted (needs a passphrase); give the key without one (openssl pkey -in KEY -out KEY.plain): ${files.keyFile}`
        : `is not a PEM private key (-----BEGIN PRIVATE KEY-----): ${files.keyFile}`,
    };
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    return { variable: "BATON_TLS_KEY", message: `is not the private key of the certificate in BATON_TLS_CERT (${files.certFile}): ${files.keyFile}` };
  }
  return null;
}

function read(variable: TlsProblem["variable"], file: string): { text: string } | { problem: TlsProblem } {
  try {
    return { text: readFileSync(file, "utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { problem: { variable, message: `cannot be read: ${file} (${code})` } };
  }
}
