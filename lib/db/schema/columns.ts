import { integer } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch, read back as a Date; every table keeps time this way. */
export const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });

/** created_at / updated_at pair filled by the database when the insert does not say. */
export const timestamps = {
  createdAt: timestamp("created_at")
    .notNull()
    .$defaultFn(() => new Date()),
  updatedAt: timestamp("updated_at")
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date()),
};
