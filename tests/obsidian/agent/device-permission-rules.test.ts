import { DeviceAgentSettings } from "../../../src/obsidian/agent/device-agent-settings";
import { DevicePermissionRules } from "../../../src/obsidian/agent/device-permission-rules";
import { App } from "../../__mocks__/obsidian";

function store(): { rules: DevicePermissionRules; device: DeviceAgentSettings; app: App } {
	const app = new App("/vault", "Vault");
	const device = new DeviceAgentSettings(app);
	return { app, device, rules: new DevicePermissionRules(device) };
}

describe("DevicePermissionRules", () => {
	it("keeps each rule once in this device's storage, listing each with the text the settings show", async () => {
		const { rules, device } = store();
		await rules.add({ tool: "Bash", commandPrefix: "npm test" });
		await rules.add({ tool: "Bash", commandPrefix: "npm test" });
		await rules.add({ tool: "WebFetch" });
		expect(device.alwaysAllow()).toEqual([{ tool: "Bash", commandPrefix: "npm test" }, { tool: "WebFetch" }]);
		expect(await rules.list()).toEqual([
			{ tool: "Bash", commandPrefix: "npm test", id: "Bash(npm test:*)", description: "Bash(npm test:*)" },
			{ tool: "WebFetch", id: "WebFetch", description: "WebFetch" },
		]);
	});

	it("revokes by the rule (the gate) or by its text (the settings list)", async () => {
		const { rules, device, app } = store();
		await rules.add({ tool: "Bash", commandPrefix: "npm test" });
		await rules.add({ tool: "WebFetch" });
		await rules.revoke("Bash(npm test:*)");
		expect(device.alwaysAllow()).toEqual([{ tool: "WebFetch" }]);
		await rules.revoke({ tool: "WebFetch" });
		expect(device.alwaysAllow()).toEqual([]);
		expect([...app.localStorage.keys()]).toEqual([]);
	});
});
