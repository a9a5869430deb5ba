/**
 * A URL, or text that quotes URLs (an error message, a git remote), without the credentials it may
 * carry: the user and password before a host (up to the last "@" of the authority, so a raw "@" in a
 * password goes too; a token may also stand alone as the user name), and the value of a query
 * parameter named like a secret (`authToken`, `api_key`, `password`, …). An scp-like `git@host:acme/web`
 * keeps its user, which is no secret. For lines people and logs see: DATABASE_URL in an error, a git
 * remote sent as a hint.
 */
export function withoutCredentials(text: string): string {
  return text
    .replace(/((?:^|[^a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/)[^/\s?#]*@/gi, "$1")
    .replace(/([?&][^=&\s]*(?:token|key|secret|password|jwt)[^=&\s]*=)(?!…)[^&\s"']*/gi, "$1…");
}
