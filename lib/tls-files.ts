import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";

/** Where the certificate (PEM, the server's first, then any intermediates) and its private key (PEM) are. */
export type TlsFiles = { certFile: string; keyFile: string };

/** The two files' contents, checked: what node's https.createServer takes. */
export type TlsMaterial = TlsFiles & { cert: string; key: string };

/** What is wrong with one of the files, named by its variable, for the one startup line (lib/config.ts). */
export type TlsProblem = { variable: "BATON_TLS_CERT" | "BATON_TLS_KEY"; message: string };

/**
 * Reads both files once at startup and checks what would otherwise surface as a TLS handshake failure
 * in every client, long after the start looked fine: a path that cannot be read, a file that is not
 * PEM, a key that needs a passphrase, a key that belongs to another certificate.
 */
export function readTlsFiles(files: TlsFiles): { material: TlsMaterial } | { problem: TlsProblem } {
  const cert = read("BATON_TLS_CERT", files.certFile);
  if ("problem" in cert) return cert;
  const key = read("BATON_TLS_KEY", files.keyFile);
  if ("problem" in key) return key;
  const problem = checkPair(files, cert.text, key.text);
  return problem ? { problem } : { material: { ...files, cert: cert.text, key: key.text } };
}

function checkPair(files: TlsFiles, cert: string, key: string): TlsProblem | null {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    return { variable: "BATON_TLS_CERT", message: `is not a PEM certificate (-----BEGIN CERTIFICATE-----): ${files.certFile}` };
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
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
