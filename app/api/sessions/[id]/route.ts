import { sessionRoute } from "@/lib/sessions/session-routes";

export const GET = sessionRoute("read");
