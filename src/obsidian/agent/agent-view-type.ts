/**
 * The Claude Code panel's view type, apart from the view's module so the plugin registers it at load without loading the view (issue 31).
 * Saved workspaces name their tabs by it: it never changes.
 */
export const AGENT_VIEW_TYPE = "claude-code-agent";
