import type { ActivityView } from "../../../src/obsidian/activity/activity-view";
import ClaudeCodeBridgePlugin from "../../../src/plugin";
import { App, type FakeElement } from "../../__mocks__/obsidian";
import { pollUntil } from "../../helpers/wait-until";

describe("the plugin's activity view", () => {
	it("opens from the ribbon icon and the command, once, and shows that the bridge is not running yet", async () => {
		const app = new App("/vault", "Vault");
		const plugin = new ClaudeCodeBridgePlugin(
			app as never,
			{ id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.0.0" } as never,
		);
		plugin.load();
		const fake = plugin as unknown as {
			ribbonIcons: { title: string; click: () => unknown }[];
			runCommand(id: string): boolean;
		};
		await pollUntil(
			() => fake.ribbonIcons.find((icon) => icon.title === "Open Claude activity"),
			"the ribbon icon",
		);
		fake.ribbonIcons.find((icon) => icon.title === "Open Claude activity")?.click();
		const leaf = await pollUntil(
			() => app.workspace.getLeavesOfType("claude-code-bridge-activity")[0],
			"the activity view",
		);
		expect(fake.runCommand("open-activity")).toBe(true);
		await pollUntil(
			() =>
				((leaf.view as unknown as ActivityView).contentEl as unknown as FakeElement).textContent.includes(
					"The bridge is not running",
				) || undefined,
			"the view's message",
		);
		expect(app.workspace.getLeavesOfType("claude-code-bridge-activity")).toHaveLength(1);
		plugin.unload();
	});
});
