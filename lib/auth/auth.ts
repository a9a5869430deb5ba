import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { getConfig } from "../config";
import { getDb } from "../db/client";
import { findUserAccess } from "../db/queries/admin-users";
import { authAccounts, authSessions, authVerifications, users } from "../db/schema";
import { wantsSecureCookies } from "./connection-security";
import { processWide } from "../process/process-state";
import { loggable, withoutSecrets } from "../process/loggable-error";

const LOG = { debug: console.debug, info: console.info, warn: console.warn, error: console.error } as const;

function createAuth(secureCookies: boolean) {
  const config = getConfig();
  return betterAuth({
    appName: "Baton",
    secret: config.secret,
    // Without BATON_BASE_URL the origin comes from each request's Host, so a fresh install works on
    // whatever address it is reached at (localhost, a LAN name, a test port).
    baseURL: config.baseUrl ?? { allowedHosts: ["*"], fallback: "http://localhost:3000" },
    database: drizzleAdapter(getDb(), {
      provider: "sqlite",
      schema: { user: users, session: authSessions, account: authAccounts, verification: authVerifications },
    }),
    // Accounts are made by the first-run setup page and `baton admin create-user`, never by open sign-up.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8, maxPasswordLength: 256 },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    // Read with every session (getSession), so a page knows an admin and a disabled account without a query of its own.
    user: {
      additionalFields: {
        role: { type: "string", input: false, required: false },
        disabledAt: { type: "date", input: false, required: false },
      },
    },
    databaseHooks: {
      session: {
        create: {
          // A disabled account gets no session: better-auth then refuses the sign-in, which the
          // sign-in form answers as it answers a wrong password (no oracle of who is disabled).
          before: async (session) => ((await findUserAccess(getDb(), { userId: session.userId }))?.disabled ? false : undefined),
        },
      },
    },
    advanced: {
      database: { generateId: () => crypto.randomUUID() },
      // better-auth decides this once per instance (and names the cookie __Secure-… when true), while
      // one server may be reached over HTTPS and over plain HTTP: hence one instance for each.
      useSecureCookies: secureCookies,
    },
    telemetry: { enabled: false },
    // better-auth logs a failed query as drizzle words it, with its parameters (a session's token when a
    // sign-out cannot delete it): the log gets the statement and its cause, not the values.
    logger: { log: (level, message, ...args: unknown[]) => LOG[level](`[Better Auth]: ${withoutSecrets(message)}`, ...args.map(loggable)) },
    // Lets server actions set the session cookie through next/headers.
    plugins: [nextCookies()],
  });
}

type Auth = ReturnType<typeof createAuth>;
const instances = processWide("better-auth", (): { secure?: Auth; plain?: Auth } => ({}));

/**
 * The better-auth instance for a request: the one whose session cookie is Secure when the request is
 * HTTPS or BATON_BASE_URL is (see wantsSecureCookies). Built on first use so that `next build` never
 * opens the database. Both read and write the same sessions; only the cookie differs.
 */
export function authFor(requestHeaders: Headers): Auth {
  const secure = wantsSecureCookies(requestHeaders, getConfig().baseUrl);
  return secure ? (instances.secure ??= createAuth(true)) : (instances.plain ??= createAuth(false));
}
