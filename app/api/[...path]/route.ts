import { errorResponse } from "@/lib/api/errors";

// Anything under /api that no route serves answers in the API's error shape, not with an HTML page.
const notFound = async () => errorResponse("not_found", "No such API route. See GET /api/health and the README.");

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
