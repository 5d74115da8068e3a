import type { App, Plugin } from "obsidian";
import { AGENT_VIEW_TYPE, AgentView, type AgentPanelHost } from "./agent-view";

/** The panel's view type, its ribbon icon and its command. Nothing of the engine loads here. */
export function registerAgentPanel(plugin: Plugin, host: AgentPanelHost): void {
	plugin.registerView(AGENT_VIEW_TYPE, (leaf) => new AgentView(leaf, host));
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
