import fs, { mkdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PluginSettings } from "../../../src/vault/privacy/plugin-settings";
import { makeTempDir } from "../../helpers/temp-dir";

const DATA_JSON = "plugins/claude-code-bridge/data.json";
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("PluginSettings: the privacy rules for a vault folder, for every process without Obsidian", () => {
	const temp = makeTempDir("plugin-settings");
	let vaultCount = 0;
	const logs: string[] = [];

	afterAll(() => temp.remove());
	beforeEach(() => logs.splice(0));

	/** A vault folder with these files (vault-relative paths). */
	function vault(files: Record<string, string>): string {
		const root = join(temp.path, `vault-${++vaultCount}`);
		mkdirSync(root);
		for (const [path, text] of Object.entries(files)) write(root, path, text);
		return root;
	}
	function write(root: string, path: string, text: string): void {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	}
	const settingsOf = (root: string, extra = { folders: ["Cli"], tags: ["cli-tag"] }): PluginSettings =>
		new PluginSettings({ vaultRoot: root, extra, log: (message) => logs.push(message) });

	it("adds the command line's rules to the plugin's, and has only those when the plugin has no settings", () => {
		expect(settingsOf(vault({}), { folders: ["Cli"], tags: [] }).rules()).toEqual({ folders: ["Cli"], tags: [] });
		// A renamed config folder (Obsidian lets users choose it): found by the plugin's settings inside.
		const root = vault({
			[`.vault-config/${DATA_JSON}`]: JSON.stringify({
				privateFolders: ["Diary", " "],
				privateTags: ["#secret", 3],
			}),
		});
		expect(settingsOf(root).rules()).toEqual({ folders: ["Cli", "Diary"], tags: ["cli-tag", "#secret"] });
	});

	it("combines the rules of every config folder holding the plugin's settings: a stale copy adds rules, never removes any", () => {
		const root = vault({
			[`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Secret"], privateTags: ["#private"] }),
			[`.a-stale-copy/${DATA_JSON}`]: JSON.stringify({}),
			[`.z-stale-copy/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Drafts"], privateTags: ["draft"] }),
			".git/config": "[core]\n",
		});
		const rules = settingsOf(root).rules();
		expect({
			folders: [...rules.folders].sort(),
			tags: [...rules.tags].sort(),
			unreadable: rules.unreadable,
		}).toEqual({
			folders: ["Cli", "Drafts", "Secret"],
			tags: ["#private", "cli-tag", "draft"],
			unreadable: undefined,
		});
		expect(logs).toEqual([
			"Claude Code Bridge's settings are in more than one config folder (.a-stale-copy, .vault-config, .z-stale-copy): which one Obsidian uses cannot be known here, so the privacy rules of all of them apply.",
		]);
	});

	it("finds a config folder that is a symbolic link to a folder", () => {
		const shared = join(temp.path, `shared-config-${vaultCount}`);
		write(shared, DATA_JSON, JSON.stringify({ privateFolders: ["Linked"] }));
		const root = vault({});
		symlinkSync(shared, join(root, ".vault-config"), "dir");
		expect(settingsOf(root).rules().folders).toEqual(["Cli", "Linked"]);
	});

	it("fails closed when a settings file cannot be parsed at start: every note private, said in one line", () => {
		const root = vault({ [`.vault-config/${DATA_JSON}`]: '{"privateFolders": ["Sec' });
		const settings = settingsOf(root);
		for (let call = 0; call < 3; call++)
			expect(settings.rules().unreadable).toMatch(
				/^the privacy settings of Claude Code Bridge for this vault cannot be read \(\.vault-config\/plugins\/claude-code-bridge\/data\.json: not valid JSON \(.+\)\), so no note is served until they can be; fix or restore that file$/,
			);
		expect(logs).toHaveLength(1);
		expect(logs[0]).toMatch(
			/^The privacy settings of Claude Code Bridge for this vault cannot be read \(.+\), so no note is served until they can be; fix or restore that file\.$/,
		);
	});

	it("fails closed when the settings become unreadable after a good read (a previous reading is not kept), and recovers when they are fixed", () => {
		const root = vault({ [`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Kept"] }) });
		const settings = settingsOf(root);
		expect(settings.rules()).toEqual({ folders: ["Cli", "Kept"], tags: ["cli-tag"] });
		write(root, `.vault-config/${DATA_JSON}`, '{"privateFolders": ["Ke');
		settings.refresh();
		expect(settings.rules().unreadable).toMatch(/cannot be read/);
		write(root, `.vault-config/${DATA_JSON}`, JSON.stringify({ privateFolders: ["Fixed"] }));
		settings.refresh();
		expect(settings.rules()).toEqual({ folders: ["Cli", "Fixed"], tags: ["cli-tag"] });
		expect(logs.at(-1)).toBe(
			"The privacy settings of Claude Code Bridge for this vault can be read again: their rules apply.",
		);
	});

	it("reads settings caught half written again before failing closed, and says nothing when the second read is whole", () => {
		const root = vault({ [`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Kept"] }) });
		const waits: number[] = [];
		// Obsidian writes data.json in place: a reader can see it empty, or cut off, while it is written.
		const settings = new PluginSettings({
			vaultRoot: root,
			extra: { folders: [], tags: [] },
			log: (message) => logs.push(message),
			waitForWriter: () => {
				waits.push(waits.length);
				if (waits.length === 2)
					write(root, `.vault-config/${DATA_JSON}`, JSON.stringify({ privateFolders: ["Written"] }));
			},
		});
		write(root, `.vault-config/${DATA_JSON}`, "");
		settings.refresh();
		expect(settings.rules()).toEqual({ folders: ["Written"], tags: [] });
		expect(waits).toHaveLength(2);
		expect(logs).toEqual([]);
		// A file that stays broken is waited for a few times once, then fails closed without waiting again.
		write(root, `.vault-config/${DATA_JSON}`, '{"privateFolders": ["Wri');
		settings.refresh();
		expect(waits).toHaveLength(5);
		expect(settings.rules().unreadable).toMatch(/not valid JSON/);
		settings.refresh();
		expect(waits).toHaveLength(5);
	});

	it("reads the settings files only when their stamps change, once their last change is over a second old", () => {
		const root = vault({
			[`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Before"] }),
			".vault-config/app.json": "{}",
			".gitignore": "x\n",
			".trash/old.md": "",
		});
		const dataFile = join(root, ".vault-config", DATA_JSON);
		const changed = (): number =>
			Math.max(statSync(dataFile).ctimeMs, statSync(join(root, ".vault-config", "app.json")).ctimeMs);
		let clock = changed() + 500;
		const reads = jest.spyOn(fs, "readFileSync");
		try {
			const settings = new PluginSettings({
				vaultRoot: root,
				extra: { folders: [], tags: [] },
				log: () => undefined,
				now: () => clock,
			});
			const settingsReads = (): number =>
				reads.mock.calls.filter(([path]) => String(path).startsWith(root)).length;
			// Changed within the last second: a second write in the same clock tick could keep the stamps, so read each time.
			const first = settingsReads();
			settings.refresh();
			expect(settingsReads()).toBe(first + 2);
			clock += 1_000;
			settings.refresh();
			const settled = settingsReads();
			for (let turn = 0; turn < 3; turn++) settings.refresh();
			expect(settingsReads()).toBe(settled);
			expect(settings.rules().folders).toEqual(["Before"]);
			// Any write changes the stamps (the change time at least): read again.
			write(root, `.vault-config/${DATA_JSON}`, JSON.stringify({ privateFolders: ["After!"] }));
			clock = changed() + 2_000;
			settings.refresh();
			expect(settingsReads()).toBe(settled + 2);
			expect(settings.rules().folders).toEqual(["After!"]);
		} finally {
			reads.mockRestore();
		}
	});

	it("does not trust unreadable settings for the rest of a turn: a question in the same turn reads them again", () => {
		const root = vault({ [`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Kept"] }) });
		const settings = new PluginSettings({
			vaultRoot: root,
			extra: { folders: [], tags: [] },
			log: (message) => logs.push(message),
			waitForWriter: () => undefined,
		});
		write(root, `.vault-config/${DATA_JSON}`, "");
		expect(settings.rules().unreadable).toMatch(/not valid JSON/);
		// The writer finishes within the same turn of this process's event loop (a watcher event and a request
		// can be handled in one poll phase).
		write(root, `.vault-config/${DATA_JSON}`, JSON.stringify({ privateFolders: ["Written"] }));
		expect(settings.rules()).toEqual({ folders: ["Written"], tags: [] });
	});

	it.each([
		[
			"privacy keys of another shape",
			JSON.stringify({ privateFolders: "Secret" }),
			/"privateFolders" is not a list of folders/,
		],
		[
			"tags of another shape",
			JSON.stringify({ privateTags: { private: true } }),
			/"privateTags" is not a list of tags/,
		],
		["a JSON value that is not an object", "null", /not a JSON object/],
		["an empty file", "", /not valid JSON/],
	])("fails closed on %s", (_what, text, reason) => {
		expect(settingsOf(vault({ [`.vault-config/${DATA_JSON}`]: text })).rules().unreadable).toMatch(reason);
	});

	it("fails closed when the settings file is there but cannot be read as a file", () => {
		const root = vault({});
		mkdirSync(join(root, ".vault-config", DATA_JSON), { recursive: true });
		expect(settingsOf(root).rules().unreadable).toMatch(
			/\(\.vault-config\/plugins\/claude-code-bridge\/data\.json: .*EISDIR/,
		);
	});

	it("applies Obsidian's excluded files (paths, not /patterns/) when the plugin's switch is on, and only then", () => {
		const app = JSON.stringify({ userIgnoreFilters: ["Excluded/", " /Archive ", "/zeb.a/i"] });
		const off = vault({
			[`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Secret"] }),
			".vault-config/app.json": app,
		});
		expect(settingsOf(off).rules().folders).toEqual(["Cli", "Secret"]);
		const on = vault({
			[`.vault-config/${DATA_JSON}`]: JSON.stringify({
				privateFolders: ["Secret"],
				excludedFilesArePrivate: true,
			}),
			".vault-config/app.json": app,
		});
		expect(settingsOf(on).rules().folders).toEqual(["Cli", "Secret", "Excluded", "Archive"]);
		const noAppJson = vault({ [`.vault-config/${DATA_JSON}`]: JSON.stringify({ excludedFilesArePrivate: true }) });
		expect(settingsOf(noAppJson).rules()).toEqual({ folders: ["Cli"], tags: ["cli-tag"] });
	});

	it("fails closed on an unreadable app.json only when excluded files count", () => {
		const broken = "{ userIgnoreFilters";
		expect(
			settingsOf(vault({ [`.vault-config/${DATA_JSON}`]: "{}", ".vault-config/app.json": broken })).rules()
				.unreadable,
		).toBeUndefined();
		const counted = settingsOf(
			vault({
				[`.vault-config/${DATA_JSON}`]: JSON.stringify({ excludedFilesArePrivate: true }),
				".vault-config/app.json": broken,
			}),
		).rules();
		expect(counted.unreadable).toMatch(/cannot be read \(\.vault-config\/app\.json: not valid JSON/);
	});

	it("sees a change that keeps the file's size and modification time", () => {
		const seconds = 1_700_000_000;
		const root = vault({ [`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Alpha"] }) });
		utimesSync(join(root, ".vault-config", DATA_JSON), seconds, seconds);
		const settings = settingsOf(root);
		expect(settings.rules().folders).toEqual(["Cli", "Alpha"]);
		write(root, `.vault-config/${DATA_JSON}`, JSON.stringify({ privateFolders: ["Omega"] }));
		utimesSync(join(root, ".vault-config", DATA_JSON), seconds, seconds);
		settings.refresh();
		expect(settings.rules().folders).toEqual(["Cli", "Omega"]);
	});

	it("reads the files again on the next turn of the event loop, not for every question within one", async () => {
		const root = vault({ [`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Before"] }) });
		const settings = settingsOf(root);
		await nextTurn();
		expect(settings.rules().folders).toEqual(["Cli", "Before"]);
		write(root, `.vault-config/${DATA_JSON}`, JSON.stringify({ privateFolders: ["After"] }));
		expect(settings.rules().folders).toEqual(["Cli", "Before"]);
		await nextTurn();
		expect(settings.rules().folders).toEqual(["Cli", "After"]);
		// A config folder that appears later (plugin installed, a synced copy) is found too.
		write(root, `.other-config/${DATA_JSON}`, JSON.stringify({ privateTags: ["later"] }));
		settings.refresh();
		expect(settings.rules().tags).toEqual(["cli-tag", "later"]);
		rmSync(join(root, ".other-config"), { recursive: true });
		settings.refresh();
		expect(settings.rules().tags).toEqual(["cli-tag"]);
	});

	describe("with the vault's watcher (the headless host and the stdio server's folder)", () => {
		/** Settings whose top-folder version is `version` (undefined: no watcher), and the stats they take of the vault's top folder. */
		function watchedSettings(root: string, version: { value: number | undefined }) {
			const settings = new PluginSettings({
				vaultRoot: root,
				extra: { folders: [], tags: [] },
				log: () => undefined,
				topLevelVersion: () => version.value,
			});
			const stats = jest.spyOn(fs, "statSync");
			const topStats = (): number => stats.mock.calls.filter(([path]) => String(path) === root).length;
			return { settings, topStats, restore: () => stats.mockRestore() };
		}

		it("takes no stat of the top folder per turn while the watcher reports nothing there, and lists it again when it does", () => {
			const root = vault({ [`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["First"] }) });
			const version = { value: 0 as number | undefined };
			const { settings, topStats, restore } = watchedSettings(root, version);
			try {
				for (let turn = 0; turn < 3; turn++) settings.refresh();
				expect(topStats()).toBe(0);
				expect(settings.rules().folders).toEqual(["First"]);
				// A config folder appears; the watcher's event says so (until then the listing stands, for at most a second).
				write(root, `.other-config/${DATA_JSON}`, JSON.stringify({ privateFolders: ["Second"] }));
				version.value = 1;
				settings.refresh();
				expect([...settings.rules().folders].sort()).toEqual(["First", "Second"]);
				// No watcher (it stopped, or never started): a stat of the top folder each turn, as without one.
				version.value = undefined;
				settings.refresh();
				settings.refresh();
				expect(topStats()).toBe(2);
			} finally {
				restore();
			}
		});

		it("keeps a renamed config folder's rules before the watcher reports the rename: the folder's settings going away lists the top again at once", () => {
			const root = vault({ [`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Secret"] }) });
			const version = { value: 0 as number | undefined };
			const { settings, restore } = watchedSettings(root, version);
			try {
				settings.refresh();
				expect(settings.rules().folders).toEqual(["Secret"]);
				renameSync(join(root, ".vault-config"), join(root, ".renamed-config"));
				settings.refresh();
				expect(settings.rules().folders).toEqual(["Secret"]);
				// Removed for good: the rules go with it.
				rmSync(join(root, ".renamed-config"), { recursive: true });
				settings.refresh();
				expect(settings.rules().folders).toEqual([]);
			} finally {
				restore();
			}
		});
	});

	it("gives the rules of one named config folder (the one a running Obsidian uses) with the command line's, else the combined rules", () => {
		const root = vault({
			[`.vault-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Secret"] }),
			[`.laptop-config/${DATA_JSON}`]: JSON.stringify({ privateFolders: ["Laptop"] }),
		});
		const settings = settingsOf(root);
		expect(settings.rulesFor(".vault-config")).toEqual({ folders: ["Cli", "Secret"], tags: ["cli-tag"] });
		expect(settings.rulesFor(".laptop-config")).toEqual({ folders: ["Cli", "Laptop"], tags: ["cli-tag"] });
		expect(settings.rulesFor(".never-used")).toEqual({ folders: ["Cli"], tags: ["cli-tag"] });
		for (const notAFolderName of [undefined, "../elsewhere", ".vault-config/plugins", "Notes", ".."])
			expect(settings.rulesFor(notAFolderName).folders.sort()).toEqual(["Cli", "Laptop", "Secret"]);
	});

	it("reads the vault tools' switch and prompts folder (the first config folder by name that sets one); any config folder can turn the tools off", () => {
		const root = vault({
			[`.vault-config/${DATA_JSON}`]: JSON.stringify({
				vaultTools: { enabled: true, promptsFolder: " My prompts " },
			}),
			[`.z-old-config/${DATA_JSON}`]: JSON.stringify({ vaultTools: { enabled: false, promptsFolder: "Other" } }),
		});
		const settings = settingsOf(root);
		expect({ off: settings.vaultToolsOff(), prompts: settings.promptsFolder() }).toEqual({
			off: true,
			prompts: "My prompts",
		});
	});
});
