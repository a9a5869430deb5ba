/**
 * fetch, its answer read in full, within `ms`, or a TimeoutError, however the fetch underneath treats
 * its signal. Inside a route handler, fetch is Next.js's: given a Request and options, it copies the
 * request into new ones, each following the one before's signal through an AbortController held only
 * weakly, and a garbage collection while a server does not answer dropped a link, so the abort never
 * reached the socket (a stalled sqld held a request past 10 s: CI on cfcc833). So a request goes on as
 * its address and options (`send`), and the limit is also a timer of its own that ends the wait whether
 * or not the abort arrives. The body is read inside the limit: a server may stall after its headers.
 *
 * The limit is checked once more after the event loop's next look at the sockets: when the process
 * itself was busy past the limit (a long garbage collection, a large import parsed, CPU starved), the
 * timer runs before the answer that came meanwhile is read, and a healthy server's answer was a timeout.
 */
export async function fetchWithin(input: Request | string, init: RequestInit, ms: number): Promise<Response> {
  const controller = new AbortController();
  const timedOut = new DOMException(`no answer within ${ms} ms`, "TimeoutError");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      // setImmediate runs after the loop's poll phase, where an answer already received is read.
      () =>
        setImmediate(() => {
          controller.abort(timedOut);
          reject(timedOut);
        }),
      ms,
    );
  });
  const answered = read(send(input, { ...init, signal: controller.signal }));
  answered.catch(() => {}); // a late failure, after the limit already answered
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A request handed on as its address and options: Next.js's fetch copies a Request (the weak chain
 * above), whereas with a URL the fetch underneath makes the one request it holds until it ends, so
 * the abort reaches the socket and frees it.
 */
async function send(input: Request | string, init: RequestInit): Promise<Response> {
  if (typeof input === "string") return fetch(input, init);
  const body = input.body ? await input.arrayBuffer() : undefined;
  return fetch(input.url, { method: input.method, headers: input.headers, body, ...init });
}

/** Statuses whose answer has no body (a Response made with one throws). */
const NO_BODY = new Set([101, 204, 205, 304]);

async function read(pending: Promise<Response>): Promise<Response> {
  const response = await pending;
  const body = await response.arrayBuffer();
  return new Response(NO_BODY.has(response.status) ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
