import type { ToolDefinition } from "../../protocol/mcp-types";
import type { ToolRegistry } from "../../protocol/tool-registry";
import type { PendingReviews } from "../../review/pending-reviews";
import { createCloseAllDiffTabsTool } from "./close-all-diff-tabs";
import { createCloseTabTool } from "./close-tab";
import { createOpenDiffTool, type OpenDiffToolDeps } from "./open-diff";

/** The three tools behind the "Review Claude's edits in Obsidian" setting. */
export class DiffReviewTools {
	readonly tools: readonly ToolDefinition[];
	private readonly reviews: PendingReviews;

	constructor(
		private readonly registry: ToolRegistry,
		options: OpenDiffToolDeps & { reviews: PendingReviews },
	) {
		this.reviews = options.reviews;
		this.tools = [
			createOpenDiffTool(options),
			createCloseTabTool(this.reviews),
			createCloseAllDiffTabsTool(this.reviews),
		];
	}

	get enabled(): boolean {
		return this.tools.every((tool) => this.registry.find(tool.name) === tool);
	}

	/**
	 * Lists or unlists the tools; the registry tells connected clients (`tools/list_changed`). When off,
	 * the CLI shows its own diff in the terminal, so reviews still pending here are handed back to it.
	 */
	setEnabled(enabled: boolean): void {
		for (const tool of this.tools) {
			const registered = this.registry.find(tool.name);
			if (enabled && registered === undefined) this.registry.register(tool);
			if (!enabled && registered === tool) this.registry.unregister(tool.name);
		}
		if (!enabled)
			this.reviews.withdrawAll("Reviewing edits in Obsidian was turned off; answer in the terminal instead.");
	}
}
