import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A server certificate for 127.0.0.1 and localhost, signed by a CA made for the test. */
export type TestTls = { certFile: string; keyFile: string; caFile: string; ca: string };

const openssl = (cwd: string, ...args: string[]) => execFileSync("openssl", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/**
 * A team's own CA, as a team makes one with the openssl CLI: a root, and a server certificate it signs
 * (subjectAltName 127.0.0.1 and localhost, serverAuth), valid two days. Everything lands in `dir`.
 */
export function makeTestCa(dir: string, name = "server"): TestTls {
  openssl(dir, "req", "-x509", ...newKey, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Baton Test Team CA",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  openssl(dir, "req", ...newKey, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", "/CN=localhost");
  writeFileSync(path.join(dir, `${name}.ext`), "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
  openssl(dir, "x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.pem`, "-days", "2",
    "-extfile", `${name}.ext`);
  const caFile = path.join(dir, "ca.pem");
  return { certFile: path.join(dir, `${name}.pem`), keyFile: path.join(dir, `${name}.key`), caFile, ca: readFileSync(caFile, "utf8") };
}
