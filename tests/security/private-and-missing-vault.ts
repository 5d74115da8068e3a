import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The vault of tests/security/private-equals-missing.test.ts: public notes, one private note of every kind issue 14
 * names, and for each a "twin" path of the same shape that does not exist. A surface keeps a private note private
 * when it answers about it exactly as about its twin, once each path is replaced by a placeholder.
 */

export const PRIVATE_FOLDER = "Secret";
export const PRIVATE_TAG = "#private";

/** Notes every surface may show. */
export const PUBLIC_NOTES: Record<string, string> = {
	"Public/Open.md": "# Open\n\nA public note. It links to [[Plan]] and [[Nowhere]].\n",
	"Notes/Shown.md": "---\ntags: [open]\n---\n# Shown\n\nA public note beside the tagged ones.\n",
};

export interface PrivateCase {
	/** What makes the note private, as the issue names it. */
	kind: string;
	/** The path as a client asks for it (may differ from the file on disk in case or Unicode form). */
	asked: string;
	/** A path of the same shape that is not in the vault. */
	twin: string;
	/** A word only the private note holds (searched for); the twin's word is held by no note. */
	word: string;
	twinWord: string;
	/** The folder that holds the private note as asked, and a missing folder of the same shape (list_notes, search). */
	folder?: { asked: string; twin: string };
	/**
	 * openDiff of a path a private note holds answers differently from a missing path by design where a new note
	 * could be made there: SECURITY.md 2 ("`openDiff` refuses a note with a private tag but reviews a missing note
	 * at that path as a new one"). Such rows check only that the private note is refused and its text never shown.
	 */
	openDiffDiffersByDesign: boolean;
	/**
	 * The twin is a free path outside the private folder, so writing there is allowed where the private note's path
	 * is refused by its folder (whether a note is there or not): openDiff and create_note are compared in the
	 * same-shape row instead.
	 */
	twinOutsidePrivateFolder?: boolean;
	/** On this case-sensitive volume the path as asked is simply another path, not in the vault. */
	missingOnThisVolume?: boolean;
}

/** Files written to disk, beyond the public notes: the private notes as stored (NFC unless said). */
const PRIVATE_FILES: Record<string, string> = {
	"Secret/Plan.md": "# Plan\n\nThe plan: wordfolderalpha.\n",
	"Secret/Résumé.md": "# Résumé\n\nThe CV: wordnfdbravo.\n",
	"Notes/FrontTag.md": "---\ntags: [private]\n---\n# FrontTag\n\nwordfrontcharlie\n",
	"Notes/BomTag.md": "\uFEFF---\ntags: [private]\n---\n# BomTag\n\nwordbomdelta\n",
	"Notes/InlineTag.md": "# InlineTag\n\nwordinlineecho #private\n",
	"Notes/PercentTag.md": "# PercentTag\n\nwordpercentfoxtrot %% #private %%\n",
	"Notes/HtmlTag.md": "# HtmlTag\n\nwordhtmlgolf <!-- #private -->\n",
	"Notes/KeyTag.md": "---\nTags: private\n---\n# KeyTag\n\nwordkeyhotel\n",
	".hidden/Diary.md": "# Diary\n\nwordhiddenindia\n",
	// Stored in NFD (e + combining acute), asked for in NFC below.
	"Notes/Cafe\u0301Tag.md": "---\ntags: [private]\n---\n# Café\n\nwordnfcjuliet\n",
};

const NFD = (text: string): string => text.normalize("NFD");

export const CASES: PrivateCase[] = [
	{
		kind: "a note in the private folder",
		asked: "Secret/Plan.md",
		twin: "Secret/Gone.md",
		word: "wordfolderalpha",
		twinWord: "wordfoldermissing",
		folder: { asked: "Secret", twin: "Vanished" },
		openDiffDiffersByDesign: false,
	},
	{
		kind: "tag in frontmatter: tags: [private]",
		asked: "Notes/FrontTag.md",
		twin: "Notes/FrontGone.md",
		word: "wordfrontcharlie",
		twinWord: "wordfrontmissing",
		openDiffDiffersByDesign: true,
	},
	{
		kind: "tag in frontmatter after a byte order mark",
		asked: "Notes/BomTag.md",
		twin: "Notes/BomGone.md",
		word: "wordbomdelta",
		twinWord: "wordbommissing",
		openDiffDiffersByDesign: true,
	},
	{
		kind: "inline #private",
		asked: "Notes/InlineTag.md",
		twin: "Notes/InlineGone.md",
		word: "wordinlineecho",
		twinWord: "wordinlinemissing",
		openDiffDiffersByDesign: true,
	},
	{
		kind: "#private inside %% comment %%",
		asked: "Notes/PercentTag.md",
		twin: "Notes/PercentGone.md",
		word: "wordpercentfoxtrot",
		twinWord: "wordpercentmissing",
		openDiffDiffersByDesign: true,
	},
	{
		kind: "#private inside <!-- HTML comment -->",
		asked: "Notes/HtmlTag.md",
		twin: "Notes/HtmlGone.md",
		word: "wordhtmlgolf",
		twinWord: "wordhtmlmissing",
		openDiffDiffersByDesign: true,
	},
	{
		kind: "the capitalised key Tags: private",
		asked: "Notes/KeyTag.md",
		twin: "Notes/KeyGone.md",
		word: "wordkeyhotel",
		twinWord: "wordkeymissing",
		openDiffDiffersByDesign: true,
	},
	{
		kind: "a note in a hidden folder",
		asked: ".hidden/Diary.md",
		twin: ".hidden/Gone.md",
		word: "wordhiddenindia",
		twinWord: "wordhiddenmissing",
		folder: { asked: ".hidden", twin: ".vanished" },
		openDiffDiffersByDesign: false,
	},
	{
		kind: "the private folder through a symlinked folder (Public/link -> ../Secret)",
		asked: "Public/link/Plan.md",
		twin: "Public/link/Gone.md",
		word: "wordfolderalpha",
		twinWord: "wordfoldermissing",
		folder: { asked: "Public/link", twin: "Public/nolink" },
		openDiffDiffersByDesign: false,
	},
	// The same link, against a missing note reached without one: a link must not change the words (issue 14).
	{
		kind: "the private folder through a symlinked folder, against a plain missing path",
		asked: "Public/link/Plan.md",
		twin: "Public/Gone.md",
		word: "wordfolderalpha",
		twinWord: "wordfoldermissing",
		openDiffDiffersByDesign: false,
		twinOutsidePrivateFolder: true,
	},
	{
		kind: "a file link to a tag-private note (Notes/Alias.md -> FrontTag.md)",
		asked: "Notes/Alias.md",
		twin: "Notes/AliasGone.md",
		word: "wordfrontcharlie",
		twinWord: "wordfrontmissing",
		openDiffDiffersByDesign: true,
	},
	// This volume is case-sensitive: another case is another path, which does not exist (SECURITY.md 2).
	{
		kind: "the private folder in another case (secret/)",
		asked: "secret/Plan.md",
		twin: "secret/Gone.md",
		word: "wordfolderalpha",
		twinWord: "wordfoldermissing",
		folder: { asked: "secret", twin: "vanished" },
		openDiffDiffersByDesign: false,
		missingOnThisVolume: true,
	},
	{
		kind: "a private note's name in another case (Secret/plan.md)",
		asked: "Secret/plan.md",
		twin: "Secret/gone.md",
		word: "wordfolderalpha",
		twinWord: "wordfoldermissing",
		openDiffDiffersByDesign: false,
		missingOnThisVolume: true,
	},
	// The path identity is NFC: an NFD spelling names the same note.
	{
		kind: "a private-folder note asked for in NFD",
		asked: NFD("Secret/Résumé.md"),
		twin: NFD("Secret/Récit.md"),
		word: "wordnfdbravo",
		twinWord: "wordnfdmissing",
		openDiffDiffersByDesign: false,
	},
	{
		kind: "a tag-private note stored in NFD, asked for in NFC",
		asked: "Notes/CaféTag.md".normalize("NFC"),
		twin: "Notes/CaféGone.md".normalize("NFC"),
		word: "wordnfcjuliet",
		twinWord: "wordnfcmissing",
		openDiffDiffersByDesign: true,
	},
];

/** The plugin's settings as `mcp --vault` reads them with no bridge (the headless host takes the same rules as flags). */
/** Obsidian lets users rename its config folder; the stdio server finds the plugin's settings in any dot folder. */
export const CONFIG_FOLDER = ".vault-config";
const PLUGIN_DATA = JSON.stringify({ enabled: true, privateFolders: [PRIVATE_FOLDER], privateTags: [PRIVATE_TAG] });

/** Writes the vault: public and private notes, the plugin's data.json, Public/link -> ../Secret and Notes/Alias.md -> FrontTag.md. */
export function writeVault(vault: string): void {
	const files: Record<string, string> = {
		...PUBLIC_NOTES,
		...PRIVATE_FILES,
		[`${CONFIG_FOLDER}/plugins/claude-code-bridge/data.json`]: PLUGIN_DATA,
	};
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(vault, path)), { recursive: true });
		writeFileSync(join(vault, path), text);
	}
	symlinkSync("../Secret", join(vault, "Public", "link"));
	symlinkSync("FrontTag.md", join(vault, "Notes", "Alias.md"));
}

/** Every text of the private notes a client must never see (their unique words). */
export const PRIVATE_WORDS = CASES.map((privateCase) => privateCase.word);

/**
 * Replaces every spelling of `path` (vault path, absolute path, file URI; as asked, NFC and NFD; JSON-escaped),
 * and the other given words, by placeholders, so the answers about a private path and its twin can be compared.
 */
export function withPlaceholders(text: string, vault: string, path: string, words: string[] = []): string {
	const spellings = new Set<string>();
	for (const form of new Set([path, path.normalize("NFC"), path.normalize("NFD")])) {
		const absolute = join(vault, ...form.split("/"));
		for (const spelling of [pathToFileURL(absolute).href, absolute, form]) {
			spellings.add(spelling);
			spellings.add(JSON.stringify(spelling).slice(1, -1));
		}
	}
	const stem = path.split("/").pop()?.replace(/\.md$/, "");
	const replacements: [string, string][] = [...spellings].map((spelling) => [spelling, "<PATH>"]);
	if (stem)
		for (const form of new Set([stem.normalize("NFC"), stem.normalize("NFD")])) replacements.push([form, "<NAME>"]);
	for (const word of words) replacements.push([word, "<WORD>"]);
	replacements.sort((a, b) => b[0].length - a[0].length);
	return replacements.reduce((result, [from, to]) => result.split(from).join(to), text);
}
