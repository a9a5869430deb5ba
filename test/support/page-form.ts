import { request } from "node:http";
import { request as httpsRequest } from "node:https";

export type Reply = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** `ca`: speak HTTPS to a server whose certificate that CA (PEM) signed (Baton's own TLS). */
type SendOptions = { method?: string; headers?: Record<string, string>; body?: Buffer; address?: string; ca?: string };

/**
 * One HTTP request to `port` at 127.0.0.1 (or `address`) with any headers, Host included (fetch would
 * not send a made-up Host).
 */
export function send(port: number, path: string, options: SendOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const target = { host: options.address ?? "127.0.0.1", port, path, method: options.method ?? "GET", headers: options.headers };
    const answered = (res: import("node:http").IncomingMessage) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    };
    const req = options.ca ? httpsRequest({ ...target, ca: options.ca }, answered) : request(target, answered);
    req.on("error", reject);
    req.end(options.body);
  });
}

const unescapeHtml = (s: string) =>
  s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The hidden inputs of a page's form: what a browser without JavaScript posts back (the server action's id). */
export function hiddenFields(html: string): [string, string][] {
  const fields: [string, string][] = [];
  for (const [tag] of html.matchAll(/<input[^>]*>/g)) {
    if (!/type="hidden"/.test(tag)) continue;
    const name = /name="([^"]*)"/.exec(tag)?.[1];
    if (name) fields.push([unescapeHtml(name), unescapeHtml(/value="([^"]*)"/.exec(tag)?.[1] ?? "")]);
  }
  return fields;
}

/**
 * Submits the form of the page at `path` as a browser without JavaScript does: reads the page, then
 * posts its hidden fields and `fields` as multipart to the same address. `headers` go with both
 * requests (Host, forwarding headers); Origin is the host the browser addressed, as a browser sends it.
 * `address`: the server's address to connect to (127.0.0.1 unless given).
 */
export async function submitPageForm(
  port: number,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  address?: string,
  ca?: string,
): Promise<{ page: Reply; reply: Reply }> {
  const page = await send(port, path, { headers, address, ca });
  const form = new FormData();
  for (const [name, value] of hiddenFields(page.body)) form.append(name, value);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const encoded = new Request("http://form.invalid", { method: "POST", body: form });
  const host = headers["x-forwarded-host"] ?? headers.host ?? `127.0.0.1:${port}`;
  const reply = await send(port, path, {
    address,
    ca,
    method: "POST",
    headers: { origin: `${ca ? "https" : (headers["x-forwarded-proto"] ?? "http")}://${host}`, ...headers, "content-type": encoded.headers.get("content-type")! },
    body: Buffer.from(await encoded.arrayBuffer()),
  });
  return { page, reply };
}
