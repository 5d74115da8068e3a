import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PluginSettings } from "../../../src/vault/privacy/plugin-settings";
import { makeTempDir } from "../../helpers/temp-dir";

describe("PluginSettings: the plugin's privacy settings for the folder fallback", () => {
	const temp = makeTempDir("plugin-settings");
	// A renamed config folder (Obsidian lets users choose it): found by the plugin's settings inside.
	const configFolder = join(temp.path, ".vault-config");
	const dataFile = join(configFolder, "plugins", "claude-code-bridge", "data.json");
	const logs: string[] = [];
	const settings = (): PluginSettings => new PluginSettings({ vaultRoot: temp.path, extra: { folders: ["Cli"], tags: ["cli-tag"] }, log: (message) => logs.push(message) });

	beforeAll(() => mkdirSync(join(configFolder, "plugins", "claude-code-bridge"), { recursive: true }));
	afterAll(() => temp.remove());

	it("adds the command line's rules to the plugin's, and has only those when the plugin has no settings", () => {
		const none = new PluginSettings({ vaultRoot: join(temp.path, "nowhere"), extra: { folders: ["Cli"], tags: [] }, log: () => undefined });
		expect(none.rules()).toEqual({ folders: ["Cli"], tags: [] });
		writeFileSync(dataFile, JSON.stringify({ privateFolders: ["Diary", " "], privateTags: ["#secret", 3] }));
		expect(settings().rules()).toEqual({ folders: ["Cli", "Diary"], tags: ["cli-tag", "#secret"] });
	});

	it("sees a change that keeps the file's size and modification time", () => {
		const seconds = 1_700_000_000;
		writeFileSync(dataFile, JSON.stringify({ privateFolders: ["Alpha"] }));
		utimesSync(dataFile, seconds, seconds);
		const subject = settings();
		expect(subject.rules().folders).toEqual(["Cli", "Alpha"]);
		writeFileSync(dataFile, JSON.stringify({ privateFolders: ["Omega"] }));
		utimesSync(dataFile, seconds, seconds);
		subject.reload();
		expect(subject.rules().folders).toEqual(["Cli", "Omega"]);
	});

	it("keeps the previous rules when the file cannot be parsed (a half-written file), and says so", () => {
		writeFileSync(dataFile, JSON.stringify({ privateFolders: ["Kept"] }));
		const subject = settings();
		writeFileSync(dataFile, '{"privateFolders": ["Ke');
		subject.reload();
		expect(subject.rules().folders).toEqual(["Cli", "Kept"]);
		expect(logs.at(-1)).toMatch(/Could not read the plugin's privacy settings/);
	});
});
