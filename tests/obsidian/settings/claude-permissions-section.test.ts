import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FakeElement, Setting, notices } from "../../__mocks__/obsidian";
import {
	ClaudePermissionsSection,
	deniedSentence,
	type ClaudePermissionsHost,
} from "../../../src/obsidian/settings/claude-permissions-section";
import type { VaultLocalStorage } from "../../../src/obsidian/settings/previewed-permissions";
import { PreviewedPermissions } from "../../../src/obsidian/settings/previewed-permissions";
import { DEFAULT_SETTINGS, type BridgeSettings } from "../../../src/settings";
import { makeTempDir } from "../../helpers/temp-dir";

let vault: string;
let removeVault: () => void;
beforeEach(() => {
	({ path: vault, remove: removeVault } = makeTempDir("permissions-section"));
	Setting.created = [];
	notices.splice(0);
});
afterEach(() => removeVault?.());

function setUp(onLocalDisk = true) {
	const vaultPath = onLocalDisk ? vault : undefined;
	const storage = new Map<string, unknown>();
	const local: VaultLocalStorage = {
		loadLocalStorage: (key) => storage.get(key),
		saveLocalStorage: (key, data) => void storage.set(key, data),
	};
	const saved: BridgeSettings[] = [];
	const settings: BridgeSettings = { ...DEFAULT_SETTINGS, privateFolders: ["Secret"] };
	const host: ClaudePermissionsHost = {
		settings,
		vaultPath,
		saveSettings: () => (saved.push({ ...settings }), Promise.resolve()),
		denyRuleSources: () => ({ folders: settings.privateFolders, tags: [], configDirs: [".vault-config"] }),
		previewedPermissions: new PreviewedPermissions(local),
	};
	const section = new ClaudePermissionsSection(host);
	const container = new FakeElement();
	section.display(container as unknown as HTMLElement);
	const preview = (): FakeElement => {
		const found = container.findAll("claude-code-bridge-permissions-preview")[0];
		if (!found) throw new Error("no preview area");
		return found;
	};
	const button = (text: string) => {
		const found = Setting.created
			.filter((setting) => setting.containerEl === preview())
			.flatMap((setting) => setting.buttons)
			.find((each) => each.text === text);
		if (!found) throw new Error(`no button ${text}; the preview shows: ${preview().textContent}`);
		return found;
	};
	return { settings, saved, section, host, preview, button };
}

const settingsFile = (): string => join(vault, ".claude", "settings.json");

describe("ClaudePermissionsSection", () => {
	it("shows in a sentence what the rules keep out, the exact patch behind Show file change, and writes nothing until the user confirms", async () => {
		const { section, preview, button, settings, saved, host } = setUp();
		await section.propose({ enabled: true, file: "shared" });
		expect(preview().children[0]?.text).toBe(
			"Once written: Claude Code will not read or edit: Secret/, .vault-config/, .trash/ — in .claude/settings.json.",
		);
		const change = preview().children.find((child) => child.tag === "details");
		expect(change?.children[0]?.text).toBe("Show file change");
		expect(change?.findAll("claude-code-bridge-permissions-diff")[0]?.text).toContain(
			'+      "Read(./Secret/**)",',
		);
		expect(existsSync(settingsFile())).toBe(false);
		await button("Write the rules").click();
		expect(readFileSync(settingsFile(), "utf8")).toContain("Read(./Secret/**)");
		expect(settings.keepPrivateFromClaudeTools).toBe(true);
		expect(saved.at(-1)).toMatchObject({ keepPrivateFromClaudeTools: true, claudeSettingsFile: "shared" });
		expect(host.previewedPermissions.load()?.settingsFile).toBe(".claude/settings.json");
		expect(notices.at(-1)).toBe(
			"Deny rules written into .claude/settings.json. Restart running Claude Code sessions.",
		);
	});

	it("writes and saves nothing on Cancel", async () => {
		const { section, button, preview, saved, settings } = setUp();
		await section.propose({ enabled: true, file: "local" });
		await button("Cancel").click();
		expect(existsSync(join(vault, ".claude"))).toBe(false);
		expect(preview().textContent).toBe("");
		expect(saved).toEqual([]);
		expect(settings.keepPrivateFromClaudeTools).toBe(false);
	});

	it("refuses when the vault is not on the local file system", async () => {
		const { section, preview, settings } = setUp(false);
		await section.propose({ enabled: true, file: "shared" });
		expect(preview().textContent).toContain("The vault is not on the local file system.");
		expect(settings.keepPrivateFromClaudeTools).toBe(false);
	});
});

describe("deniedSentence", () => {
	it("names each folder and the file, in plain words", () => {
		expect(deniedSentence(["Secret", "Work/HR", ".vault-config"], ".claude/settings.local.json")).toBe(
			"Claude Code will not read or edit: Secret/, Work/HR/, .vault-config/ — in .claude/settings.local.json.",
		);
	});
});
