type Fetch = (request: Request) => Promise<Response>;

/** Hrana's pipeline endpoint (`/v2/pipeline`, `/v3/pipeline`), where @libsql/client sends every statement. */
const PIPELINE = /\/v\d+\/pipeline$/;
/** In a JSON answer, a result's replication index (a u64, as a string); inside a JSON string the quotes would be escaped. */
const INDEX = /"replication_index":"(\d+)"/g;

type PipelineRequest = { type?: string; stmt?: { replication_index?: string }; batch?: { replication_index?: string } };

/**
 * Read-your-writes through a sqld replica (DATABASE_URL at a replica, which forwards writes to its
 * primary and answers reads from its own copy). Each @libsql/client request is a stream of its own,
 * and a replica answered a read just after this instance's write from a copy that did not have it yet
 * (1 in 8 here: a learning stored, then "No such learning."; a project made, then 404).
 *
 * Hrana carries what is needed: every result says the replication index it was answered at, and a
 * statement or batch sent with `replication_index` waits until the replica has reached it. So this
 * fetch remembers the highest index answered and sends it with every statement: reads see this
 * instance's writes (and never go back in time); other instances' writes come with replication.
 * A primary, which always has its own writes, waits for nothing. @libsql/client 0.18 does not do this
 * itself (it sends JSON to /v2/pipeline, which this rewrites).
 *
 * A request that fails forgets the index: a replica that waits for one it never reaches (a primary
 * replaced by an older copy) would otherwise time out every request from then on.
 */
export function withReplicationIndex(send: Fetch): Fetch {
  let highest = 0n;
  return async (request) => {
    if (request.method !== "POST" || !PIPELINE.test(new URL(request.url).pathname)) return send(request);
    const asked = highest;
    const outgoing = asked > 0n ? new Request(request, { body: stamped(await request.text(), asked) }) : request;
    let response: Response;
    try {
      response = await send(outgoing);
    } catch (error) {
      if (highest === asked) highest = 0n;
      throw error;
    }
    const text = await response.text();
    for (const [, index] of text.matchAll(INDEX)) if (BigInt(index!) > highest) highest = BigInt(index!);
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** A pipeline request body with `index` on each statement and batch that has none. */
function stamped(body: string, index: bigint): string {
  const pipeline = JSON.parse(body) as { requests?: PipelineRequest[] };
  for (const request of pipeline.requests ?? []) {
    if (request.type === "execute" && request.stmt) request.stmt.replication_index ??= String(index);
    if (request.type === "batch" && request.batch) request.batch.replication_index ??= String(index);
  }
  return JSON.stringify(pipeline);
}
