/**
 * Signs in through the real sign-in page as a browser without JavaScript would: the form's hidden
 * server-action fields, the email and the password, posted as multipart. Answers the session cookie
 * as a `Cookie` header value.
 */
export async function signInCookie(baseUrl: string, email: string, password: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}/sign-in`)).text();
  const form = html.slice(html.indexOf("<form"), html.indexOf("</form>"));
  const body = new FormData();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]*)"(?: value="([^"]*)")?\/>/g)) body.append(unescapeHtml(m[1]!), unescapeHtml(m[2] ?? ""));
  body.append("email", email);
  body.append("password", password);
  const res = await fetch(`${baseUrl}/sign-in`, { method: "POST", body, redirect: "manual", headers: { origin: baseUrl } });
  const cookie = res.headers.getSetCookie().find((c) => c.includes("better-auth.session_token="));
  if (!cookie) throw new Error(`sign-in as ${email} set no session cookie (status ${res.status})`);
  return cookie.split(";")[0]!;
}

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}
