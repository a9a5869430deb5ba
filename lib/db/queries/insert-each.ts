/**
 * Inserts rows one statement at a time (an import can be larger than SQLite's cap on bound parameters
 * in one statement) and counts those the insert kept: `insertOne` returns what RETURNING gave, nothing
 * when a unique index already held the row.
 */
export async function insertEach<T>(rows: T[], insertOne: (row: T) => Promise<unknown[]>): Promise<number> {
  let added = 0;
  for (const row of rows) added += (await insertOne(row)).length;
  return added;
}
