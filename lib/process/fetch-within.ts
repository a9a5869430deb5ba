/**
 * fetch, its answer read in full, within `ms`, or a TimeoutError, however the fetch underneath treats
 * its signal. Inside a route handler, fetch is Next.js's: it copies the request into new ones, each
 * following the one before's signal through an AbortController held only weakly, and a garbage
 * collection while a server does not answer drops a link, so the abort never reaches the socket (a
 * stalled sqld held a request past 10 s: CI on cfcc833). The limit here is a timer of its own that
 * ends the wait whether or not the abort arrives; the abort is still sent, to free the connection when
 * it can. The body is read inside the limit too: a server may stall after its headers.
 */
export async function fetchWithin(input: Request | string, init: RequestInit, ms: number): Promise<Response> {
  const controller = new AbortController();
  const timedOut = new DOMException(`no answer within ${ms} ms`, "TimeoutError");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(timedOut);
      reject(timedOut);
    }, ms);
  });
  const answered = read(fetch(input, { ...init, signal: controller.signal }));
  answered.catch(() => {}); // a late failure, after the limit already answered
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Statuses whose answer has no body (a Response made with one throws). */
const NO_BODY = new Set([101, 204, 205, 304]);

async function read(pending: Promise<Response>): Promise<Response> {
  const response = await pending;
  const body = await response.arrayBuffer();
  return new Response(NO_BODY.has(response.status) ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
