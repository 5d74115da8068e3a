import type { App, Plugin } from "obsidian";
import type { AgentPanelHost } from "./agent-view";
import { AGENT_VIEW_TYPE } from "./agent-view-type";

/**
 * The panel's view module (its tabs, transcript, input and cards), initialised when Obsidian first makes the panel,
 * not with main.js (issue 31). Obsidian's view creator answers at once, so this is a synchronous require and not an
 * `import()`: esbuild keeps the module wrapped in main.js until this first call.
 */
function agentViewModule(): typeof import("./agent-view") {
	return require("./agent-view") as typeof import("./agent-view");
}

/** The panel's view type, its ribbon icon and its command. Nothing of the engine loads here. */
export function registerAgentPanel(plugin: Plugin, host: AgentPanelHost): void {
	plugin.registerView(AGENT_VIEW_TYPE, (leaf) => new (agentViewModule().AgentView)(leaf, host));
	plugin.addRibbonIcon("bot", "Open Claude Code panel", () => void openAgentPanel(plugin.app));
	plugin.addCommand({
		id: "open-agent-panel",
		name: "Open Claude Code panel",
		callback: () => void openAgentPanel(plugin.app),
	});
}

/** Shows the panel (in the right sidebar, once). */
export async function openAgentPanel(app: App): Promise<void> {
	const { workspace } = app;
	let leaf = workspace.getLeavesOfType(AGENT_VIEW_TYPE)[0];
	if (!leaf) {
		leaf = workspace.getRightLeaf(false) ?? workspace.getLeaf("tab");
		await leaf.setViewState({ type: AGENT_VIEW_TYPE, active: true });
	}
	await workspace.revealLeaf(leaf);
}
