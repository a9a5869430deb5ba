import { noSuchApiRoute } from "@/lib/api/no-such-route";

// Anything under /api that no route serves answers in the API's error shape, not with an HTML page.
const notFound = async () => noSuchApiRoute();

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
