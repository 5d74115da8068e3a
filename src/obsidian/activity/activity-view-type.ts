/**
 * The activity view's type, apart from the view's module so the plugin registers it at load without loading the view (issue 31).
 * Saved workspaces name their tabs by it: it never changes.
 */
export const ACTIVITY_VIEW_TYPE = "claude-code-bridge-activity";
