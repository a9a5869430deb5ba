/** The approval form's project boxes are named `project:<slug>` (read by the action, written by the form); none ticked: every project. */
export const PROJECT_FIELD = "project:";
