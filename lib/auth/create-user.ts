import { hashPassword } from "better-auth/crypto";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { oneLine } from "../api/zod-fields";
import type { Db } from "../db/client";
import { claimSetup, countUsers, findUserByEmail, insertUserWithPassword, type PublicUser } from "../db/queries/users";
import type { UserRole } from "../rules";

export const newUserSchema = z.object({
  email: z.email({ message: "Enter a valid email address." }).max(254),
  // A name is shown on one line of other people's contexts and tools: no line break or other control character.
  name: z
    .string()
    .trim()
    .min(1, { message: "Enter a name." })
    .max(100)
    .regex(...oneLine("A name has no line breaks or control characters.")),
  password: z.string().min(8, { message: "Use at least 8 characters." }).max(256, { message: "Use at most 256 characters." }),
});
export type NewUser = z.input<typeof newUserSchema>;

/**
 * Creates a user who signs in with email and password (better-auth's scrypt hash, so its sign-in
 * verifies it). Used by `baton admin create-user` and, through createFirstUser, by the setup page. The
 * first account is an admin (as the setup page's is), and so is one made with `admin`.
 */
export async function createUser(db: Db, input: NewUser, options: { admin?: boolean } = {}): Promise<PublicUser & { role: UserRole }> {
  const data = newUserSchema.parse(input);
  const taken = () => new ApiError("conflict", `A user with the email ${data.email} already exists.`);
  if (await findUserByEmail(db, { email: data.email })) throw taken();
  const passwordHash = await hashPassword(data.password);
  return db.transaction(async (tx) => {
    const role: UserRole = options.admin || (await countUsers(tx)) === 0 ? "admin" : "member";
    const user = await insertUserWithPassword(tx, { id: crypto.randomUUID(), ...data, passwordHash, role });
    if (!user) throw taken();
    return { ...user, role };
  });
}

/** The first-run setup: creates the admin only while no user exists, and only once even when raced. */
export async function createFirstUser(db: Db, input: NewUser): Promise<PublicUser> {
  const data = newUserSchema.parse(input);
  const passwordHash = await hashPassword(data.password);
  const id = crypto.randomUUID();
  const done = () => new ApiError("conflict", "Baton is already set up. Sign in instead.");
  return db.transaction(async (tx) => {
    if ((await countUsers(tx)) > 0 || !(await claimSetup(tx, { userId: id }))) throw done();
    const user = await insertUserWithPassword(tx, { id, ...data, passwordHash, role: "admin" });
    if (!user) throw done();
    return user;
  });
}
