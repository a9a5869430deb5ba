/** One value of a search parameter (the first when repeated), or "" when absent. */
export function one(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? "";
}
