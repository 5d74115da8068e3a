import type { ActiveNote } from "../../../src/vault-tools/kit/ports";
import {
	ACTIVE_NOTE_URI,
	DAILY_NOTE_URI,
	OVERVIEW_URI,
	VaultResources,
} from "../../../src/vault-tools/resources/vault-resources";
import { createReadNoteTool } from "../../../src/vault-tools/tools/read-note";
import { toolOver } from "../tools/vault-tool-env";

const vault = toolOver(
	createReadNoteTool,
	{
		"Home.md": "# Home #Work\n",
		"Daily/2026-11-27.md": "today #work #log\n",
		"Daily/2026-11-26.md": "yesterday #log\n",
		"Private/Secret.md": "secret #hidden\n",
	},
	{ isPrivate: (path) => path.startsWith("Private/") },
);
afterAll(() => vault.dispose());

function resources(active: ActiveNote | undefined, daily: string | undefined, textCap = 1000) {
	return new VaultResources({
		vault: vault.env.vault,
		vaultName: "V",
		activeNote: { current: () => active },
		dailyNote: () => daily,
		textCap,
	});
}

describe("VaultResources", () => {
	it("lists the active note, today's daily note and the overview, as Markdown", async () => {
		expect(await resources({ path: "Home.md" }, "Daily/2026-11-27.md").list()).toEqual({
			resources: [
				{
					uri: ACTIVE_NOTE_URI,
					name: "Active note",
					description: "The note open in Obsidian: Home.md",
					mimeType: "text/markdown",
				},
				{
					uri: DAILY_NOTE_URI,
					name: "Today's daily note",
					description: "Today's daily note: Daily/2026-11-27.md",
					mimeType: "text/markdown",
				},
				{
					uri: OVERVIEW_URI,
					name: "Vault overview",
					description: 'Notes, folders and tags of the vault "V"',
					mimeType: "text/markdown",
				},
			],
		});
	});

	it("leaves out a private or missing active or daily note, and refuses to read it", async () => {
		const hidden = resources({ path: "Private/Secret.md" }, "Daily/2099-01-01.md");
		expect(((await hidden.list()).resources as { uri: string }[]).map((entry) => entry.uri)).toEqual([
			OVERVIEW_URI,
		]);
		await expect(hidden.read({ uri: ACTIVE_NOTE_URI })).rejects.toThrow(`Resource not found: ${ACTIVE_NOTE_URI}`);
		await expect(hidden.read({})).rejects.toThrow('resources/read needs "uri"');
	});

	it("reads a note's text, cut at the cap with a pointer to read_note", async () => {
		expect(await resources({ path: "Home.md" }, undefined).read({ uri: ACTIVE_NOTE_URI })).toEqual({
			contents: [{ uri: ACTIVE_NOTE_URI, mimeType: "text/markdown", text: "# Home #Work\n" }],
		});
		const cut = await resources({ path: "Home.md" }, undefined, 6).read({ uri: ACTIVE_NOTE_URI });
		expect((cut.contents as { text: string }[])[0]?.text).toBe(
			'# Home\n\n(characters 0-6 of 13; continue with offset 6; read the rest with read_note "Home.md")',
		);
	});

	it("gives an overview of visible notes, folders by note count and tags without case", async () => {
		const overview = await resources(undefined, undefined).read({ uri: OVERVIEW_URI });
		expect((overview.contents as { text: string }[])[0]?.text).toBe(
			[
				'# Vault "V"',
				"",
				"3 notes in 2 top-level folders.",
				"",
				"## Top-level folders (notes)",
				"- Daily (2)",
				"- (vault root) (1)",
				"",
				"## Tags (notes)",
				"- #log (2)",
				"- #work (2)",
			].join("\n"),
		);
	});
});
