import { ADAPTERS, type ServedVault } from "./private-served-vault";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 14: `move_note` and private notes. A move keeps the links inside private notes working, as Obsidian's own
 * rename does, and never names, counts or quotes them: a link in a private note that could not be kept is reported
 * without its note, line or text (before: `cannot rewrite [[Beta|…]] in Secret/Plan.md (line 7)`).
 */
const PUBLIC: Record<string, string> = {
	"Notes/Beta.md": "# Beta\n",
	"Notes/Alpha.md": "Alpha links [b](Beta.md).\n",
};
const PRIVATE: Record<string, string> = {
	"Secret/Plan.md": "one\ntwo\nthree\nfour\nfive\nsix\nThe plan: [[Beta|the secret alias]]\n",
	"Notes/Diary.md": "#private\nDear diary, [[Beta]].\n",
};
const RULES = { folders: ["Secret"], tags: ["private"] };
const PRIVATE_TRACES = /Secret|Plan|secret alias|Diary|diary|line 7|\b2 links\b/;

describe.each(ADAPTERS)("move_note over %s with private notes linking to the note", (_name, serve) => {
	let withPrivate: ServedVault;
	let without: ServedVault;
	beforeEach(async () => {
		withPrivate = await serve({ ...PUBLIC, ...PRIVATE }, RULES);
		without = await serve(PUBLIC, RULES);
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => {
		withPrivate?.dispose();
		without?.dispose();
	});

	it("rewrites the links in private notes too, and answers as in the vault without them", async () => {
		const args = { path: "Notes/Beta.md", to: "Archive/Gamma.md" };
		const answer = await withPrivate.call("move_note", args);
		expect(answer).toEqual(await without.call("move_note", args));
		expect(answer.text).toMatch(
			/^Moved Notes\/Beta\.md to Archive\/Gamma\.md; updated 1 link in 1 note\.\nNotes\/Alpha\.md: 1$/,
		);
		expect(withPrivate.text("Secret/Plan.md")).toMatch(/The plan: \[\[Gamma\|the secret alias\]\]\n$/);
		expect(withPrivate.text("Notes/Diary.md")).toBe("#private\nDear diary, [[Gamma]].\n");
	});
});

describe("move_note over the folder: a link in a private note that cannot be kept", () => {
	const [, serveFolder] = ADAPTERS[0] ?? [];
	let vault: ServedVault;
	beforeEach(async () => {
		if (!serveFolder) throw new Error("no folder adapter");
		// A file without an extension at the new path minus `.md`: `[[Gamma]]` and `[[Archive/Gamma]]` would lead
		// to it, so a wikilink to the note cannot be rewritten (the Markdown link keeps `.md` and can).
		vault = await serveFolder({ ...PUBLIC, ...PRIVATE, "Archive/Gamma": "not a note\n" }, RULES);
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => vault?.dispose());

	it("refuses the move without naming, counting or quoting the private note, and changes nothing", async () => {
		const answer = await vault.call("move_note", { path: "Notes/Beta.md", to: "Archive/Gamma.md" });
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/^move_note: .*a link in a note the vault tools cannot show.*nothing was moved/);
		expect(answer.text).not.toMatch(PRIVATE_TRACES);
		expect(vault.text("Notes/Beta.md")).toBe(PUBLIC["Notes/Beta.md"]);
		expect(vault.text("Secret/Plan.md")).toBe(PRIVATE["Secret/Plan.md"]);
	});

	it("still names a public note's link that cannot be kept", async () => {
		vault.dispose();
		if (!serveFolder) throw new Error("no folder adapter");
		vault = await serveFolder(
			{ ...PUBLIC, "Notes/Alpha.md": "Alpha links [[Beta]].\n", "Archive/Gamma": "not a note\n" },
			RULES,
		);
		const answer = await vault.call("move_note", { path: "Notes/Beta.md", to: "Archive/Gamma.md" });
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/cannot rewrite \[\[Beta\]\] in Notes\/Alpha\.md \(line 1\).*nothing was moved/);
	});
});

describe("move_note over Obsidian: links Obsidian did not update (its setting is off)", () => {
	const [, serveObsidian] = ADAPTERS[1] ?? [];
	let vault: ServedVault;
	beforeEach(async () => {
		if (!serveObsidian) throw new Error("no Obsidian adapter");
		vault = await serveObsidian({ ...PUBLIC, ...PRIVATE }, RULES);
		if (!vault.app) throw new Error("no app");
		vault.app.fileManager.autoUpdateLinks = false;
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => vault?.dispose());

	it("names the public note's link and none of the private ones", async () => {
		const answer = await vault.call("move_note", { path: "Notes/Beta.md", to: "Archive/Gamma.md" });
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(
			/^move_note: moved Notes\/Beta\.md to Archive\/Gamma\.md, but .*Notes\/Alpha\.md:1 \[b\]\(Beta\.md\).*a link in a note the vault tools cannot show/,
		);
		expect(answer.text).not.toMatch(PRIVATE_TRACES);
	});
});
