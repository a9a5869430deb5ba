/** A small fetch wrapper for API tests: JSON in, status and JSON out. */
export function apiClient(baseUrl: string, token?: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const send = () =>
      fetch(baseUrl + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
    // "other side closed": under load, mostly a kept-alive socket the server closed as it idled out,
    // before this request reached it; once more on a new socket.
    const res = await send().catch((error: unknown) => {
      if ((error as { cause?: { code?: string } })?.cause?.code === "UND_ERR_SOCKET") return send();
      throw error;
    });
    const text = await res.text();
    let json: any = undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: the test asserts on text
    }
    return { status: res.status, headers: res.headers, json, text };
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
