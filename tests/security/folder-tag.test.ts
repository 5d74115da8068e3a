import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextCommands } from "../../src/headless/context-commands";
import { TagCommands } from "../../src/obsidian/editor/tag-commands";
import { App, Menu, Plugin, TFile, TFolder, notices } from "../__mocks__/obsidian";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import type { TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 11 finding 5: tagging a folder for Claude (`at_mentioned` with a path ending in "/") must refuse private
 * and hidden folders, and folders reached through a symbolic link into them, as it refuses a private note. Run
 * against the headless host's assembly (real ws server, temp vault) through its `tag` command, and through the
 * Obsidian file menu (TagCommands over the same running bridge), which must not offer the item for them.
 */
const PRIVATE_FOLDERS = [
	"Secret/",
	"Secret/Inner/",
	".vault-config/",
	".vault-config/plugins/",
	"pub/",
	"pub/Inner/",
	"cfg/",
];

let fixture: AssembledBridge;
let client: TestClient;

beforeAll(async () => {
	fixture = await startAssembledBridge({
		privacy: { folders: ["Secret"], tags: [] },
		populate: (vault) => {
			mkdirSync(join(vault, "Secret", "Inner"), { recursive: true });
			writeFileSync(join(vault, "Secret", "Inner", "plan.md"), "PLAN-SECRET\n");
			mkdirSync(join(vault, ".vault-config", "plugins"), { recursive: true });
			mkdirSync(join(vault, "Public"));
			writeFileSync(join(vault, "Public", "open.md"), "Open.\n");
			symlinkSync(join(vault, "Secret"), join(vault, "pub"));
			symlinkSync(join(vault, ".vault-config"), join(vault, "cfg"));
		},
	});
	client = await fixture.client();
}, FIXTURE_TIMEOUT_MS);
afterAll(() => fixture?.stop());

/** Every at_mentioned this client got, up to and including the public fence. */
async function mentionsUntilFence(fence: string): Promise<string[]> {
	await client.waitFor(
		() => client.notifications.find((n) => n.method === "at_mentioned" && n.params?.filePath === fence),
		`at_mentioned ${fence}`,
	);
	const paths = client.notifications
		.filter((n) => n.method === "at_mentioned")
		.map((n) => String(n.params?.filePath));
	client.notifications.splice(0);
	return paths;
}

describe("headless: tag <folder>/", () => {
	const tag = (path: string): Promise<string> => {
		const command = contextCommands(fixture.bridge, fixture.editor).find(([name]) => name === "tag")?.[1];
		if (!command) throw new Error("no tag command");
		return Promise.resolve(command.run([path])).then(String);
	};

	it.each(PRIVATE_FOLDERS)("%s is refused as a private note is", async (folder) => {
		expect(await tag(folder)).toBe("Not sent: the note is private (excluded)");
	});

	it("nothing private reaches the client; a public folder does", async () => {
		for (const folder of PRIVATE_FOLDERS) await tag(folder);
		expect(await tag("Public/")).toBe(`Tagged ${join(fixture.vaultPath, "Public")}/`);
		expect(await mentionsUntilFence(`${join(fixture.vaultPath, "Public")}/`)).toEqual([
			`${join(fixture.vaultPath, "Public")}/`,
		]);
	});
});

describe("Obsidian: the file menu over the running bridge", () => {
	let plugin: Plugin;

	beforeAll(() => {
		const app = new App(fixture.vaultPath, "Vault");
		plugin = new Plugin(app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0" });
		new TagCommands(plugin as never, {
			paths: () => fixture.bridge.paths,
			notifier: () => fixture.bridge.notifier,
		}).register();
		plugin.load();
		app.workspace.finishLayout();
	});
	afterAll(() => plugin?.unload());
	beforeEach(() => notices.splice(0));

	const menuFor = (...files: (TFile | TFolder)[]): Menu => {
		const menu = new Menu();
		if (files.length === 1) plugin.app.workspace.trigger("file-menu", menu, files[0], "file-explorer-context-menu");
		else plugin.app.workspace.trigger("files-menu", menu, files, "file-explorer-context-menu");
		return menu;
	};

	it.each(["Secret", "Secret/Inner", ".vault-config", "pub", "pub/Inner", "cfg"])(
		"no tag item for the private or hidden folder %s",
		(folder) => {
			expect(menuFor(new TFolder(folder)).items.map((item) => item.title)).toEqual([]);
		},
	);

	it("no tag item for a private note, or for a selection of private things only", () => {
		expect(menuFor(new TFile("Secret/Inner/plan.md")).items).toEqual([]);
		expect(menuFor(new TFolder("Secret"), new TFile("pub/Inner/plan.md")).items).toEqual([]);
	});

	it("a public folder is offered and tagged; with a private one beside it, only the public one is sent", async () => {
		const publicFolder = `${join(fixture.vaultPath, "Public")}/`;
		const alone = menuFor(new TFolder("Public"));
		expect(alone.items.map((item) => item.title)).toEqual(["Tag for Claude Code"]);
		const mixed = menuFor(new TFolder("Secret"), new TFolder("Public"));
		expect(mixed.items.map((item) => item.title)).toEqual(["Tag for Claude Code"]);
		mixed.items[0]?.click();
		expect(notices).toEqual(["Tagged for Claude Code. Not sent: the note is private (excluded in the settings)."]);
		expect(await mentionsUntilFence(publicFolder)).toEqual([publicFolder]);
	});
});
