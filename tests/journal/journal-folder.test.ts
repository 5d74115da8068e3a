import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installedPluginJournalFolder, journalFolder, vaultId } from "../../src/journal/journal-folder";
import { pluginJournalFolder } from "../../src/obsidian/activity/plugin-journal";
import { makeTempDir } from "../helpers/temp-dir";

describe("journalFolder", () => {
	it("is under $XDG_DATA_HOME, else ~/.local/share, per vault", () => {
		const temp = makeTempDir("journal-folder");
		try {
			const vault = join(temp.path, "My Vault");
			mkdirSync(vault);
			expect(journalFolder(vault, { XDG_DATA_HOME: join(temp.path, "data") }, join(temp.path, "home"))).toEqual({
				folder: join(temp.path, "data", "claude-code-bridge", "journal", vaultId(vault)),
			});
			expect(journalFolder(vault, { XDG_DATA_HOME: "relative/ignored" }, join(temp.path, "home"))).toEqual({
				folder: join(temp.path, "home", ".local", "share", "claude-code-bridge", "journal", vaultId(vault)),
			});
			expect(vaultId(vault)).toMatch(/^My_Vault-[0-9a-f]{12}$/);
		} finally {
			temp.remove();
		}
	});

	it("gives two vaults of the same name two journals, and a link to a vault the same one", () => {
		const temp = makeTempDir("journal-folder-ids");
		try {
			mkdirSync(join(temp.path, "one", "Notes"), { recursive: true });
			mkdirSync(join(temp.path, "two", "Notes"), { recursive: true });
			symlinkSync(join(temp.path, "one", "Notes"), join(temp.path, "Notes"));
			expect(vaultId(join(temp.path, "one", "Notes"))).not.toBe(vaultId(join(temp.path, "two", "Notes")));
			expect(vaultId(join(temp.path, "Notes"))).toBe(vaultId(join(temp.path, "one", "Notes")));
		} finally {
			temp.remove();
		}
	});

	it("refuses a data folder inside the vault", () => {
		const temp = makeTempDir("journal-folder-inside");
		try {
			const place = journalFolder(temp.path, {}, temp.path);
			expect(place).toEqual({ refused: expect.stringMatching(/inside the vault/) as unknown });
		} finally {
			temp.remove();
		}
	});
});

describe("installedPluginJournalFolder", () => {
	const ID = "claude-code-bridge";

	/** Installs the plugin (its manifest) in `configFolder` of `vault`. */
	function install(vault: string, configFolder: string): void {
		mkdirSync(join(vault, configFolder, "plugins", ID), { recursive: true });
		writeFileSync(join(vault, configFolder, "plugins", ID, "manifest.json"), JSON.stringify({ id: ID }));
	}

	it("is the folder the plugin keeps its own journal in, in whichever config folder it is installed", () => {
		const temp = makeTempDir("plugin-journal-folder");
		try {
			for (const configFolder of [".config-app", ".config-work"]) {
				const vault = join(temp.path, configFolder);
				install(vault, configFolder);
				const expected = pluginJournalFolder(vault, configFolder, {
					id: ID,
					dir: `${configFolder}/plugins/${ID}`,
				});
				expect(installedPluginJournalFolder(vault, ID)).toBe(expected);
				expect(expected).toBe(join(vault, configFolder, "plugins", ID, "journal"));
			}
		} finally {
			temp.remove();
		}
	});

	it("is none without the plugin installed, with its settings only, or in two config folders at once", () => {
		const temp = makeTempDir("plugin-journal-none");
		try {
			const vault = temp.path;
			expect(installedPluginJournalFolder(vault, ID)).toBeUndefined();
			mkdirSync(join(vault, ".config-app", "plugins", ID), { recursive: true });
			writeFileSync(join(vault, ".config-app", "plugins", ID, "data.json"), "{}");
			expect(installedPluginJournalFolder(vault, ID)).toBeUndefined();
			install(vault, ".config-app");
			install(vault, ".config-mobile");
			expect(installedPluginJournalFolder(vault, ID)).toBeUndefined();
			expect(installedPluginJournalFolder(join(vault, "missing"), ID)).toBeUndefined();
		} finally {
			temp.remove();
		}
	});

	it("in a config folder linked from elsewhere is the per-vault folder the plugin keeps there, so vaults sharing it never mix", () => {
		const temp = makeTempDir("plugin-journal-links");
		try {
			const shared = join(temp.path, "shared");
			install(shared, ".config-app");
			const vaults = ["One", "Two"].map((name) => join(temp.path, name));
			for (const vault of vaults) {
				mkdirSync(vault);
				symlinkSync(join(shared, ".config-app"), join(vault, ".config-app"));
			}
			const manifest = { id: ID, dir: `.config-app/plugins/${ID}` };
			const folders = vaults.map((vault) => installedPluginJournalFolder(vault, ID));
			expect(folders).toEqual(vaults.map((vault) => pluginJournalFolder(vault, ".config-app", manifest)));
			expect(folders).toEqual(
				vaults.map((vault) => join(vault, ".config-app", "plugins", ID, "journal", vaultId(vault))),
			);
			// The vault the folder really is in keeps the plain one.
			expect(installedPluginJournalFolder(shared, ID)).toBe(
				join(shared, ".config-app", "plugins", ID, "journal"),
			);
		} finally {
			temp.remove();
		}
	});
});
