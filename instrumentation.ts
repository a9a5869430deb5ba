export async function register() {
  // Only the Node.js server runs migrations; an edge runtime has no file system to read drizzle/ from.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startup } = await import("./lib/startup");
    await startup();
  }
}
