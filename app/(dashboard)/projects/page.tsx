import { redirect } from "next/navigation";

/** The projects list lives at the dashboard's root. */
export default function ProjectsIndex() {
  redirect("/");
}
