/**
 * The generated vault of issue 31 ("Heavy vaults and long days"), made like the 10k-note vault of
 * vault-tools-research.md §6 (37.6 MB of Markdown, about 7 links a note): note names of several words (as people
 * name notes, and long enough that a link's path is not a short string), links in many forms between notes, a note
 * with 200 backlinks written in 15 link forms, links and tags inside code that must not count, tags in 735 of every
 * 10,000 notes (`HEAVY_TAG`), and a rare phrase in 3 notes. Deterministic: the same count makes the same bytes.
 * `expected` says what a correct index finds in it (the bench checks the tools' answers against it).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lcg, PROSE_WORDS } from "./corpus-words";

export const HUB = "Hub/Popular Note.md";
/** The tag every tagged note has (inline or in its frontmatter); its count in the tags overview is `expected.taggedNotes`. */
export const HEAVY_TAG = "heavy";
/** A tag written only inside code (fenced blocks and code spans): no tool may count it. */
export const CODE_ONLY_TAG = "codeonly";
export const RARE_PHRASE = "quokka marmalade";
export const COMMON_WORDS = "sentences about";

const NOTES_PER_FOLDER = 100;
const STATUSES = ["open", "waiting", "done", "someday"];
/** The hub's 200 backlinks cycle through these (each from a note in `Area N/`). */
const HUB_LINK_FORMS = [
	"[[Popular Note]]",
	"[[Popular Note|the popular one]]",
	"[[Popular Note#Section]]",
	"[[Popular Note#Section|a section of it]]",
	"![[Popular Note]]",
	"[[Hub/Popular Note]]",
	"[[Hub/Popular Note.md]]",
	"[[popular note]]",
	"[[Popular Note#^hub-block]]",
	"[md](Popular%20Note.md)",
	"[angle](<Hub/Popular Note.md>)",
	"[rel](../Hub/Popular%20Note.md#Section)",
	"[from the top](Hub/Popular%20Note.md)",
	"![an embed](<Popular Note.md>)",
	"[[Popular Note.md|with its extension]]",
];

export interface HeavyVaultFacts {
	notes: number;
	bytes: number;
	/** Links written outside code (the hub's included). */
	links: number;
	/** Notes with `#heavy`. */
	taggedNotes: number;
	/** The notes that link to the hub (outside code), each once. */
	hubSources: string[];
	/** The notes holding the rare phrase. */
	phraseNotes: string[];
}

function title(index: number): string {
	const word = (at: number): string =>
		PROSE_WORDS[(index * 7 + at * 13 + Math.floor(index / 20)) % PROSE_WORDS.length] ?? "";
	const first = word(0);
	return `${first.charAt(0).toUpperCase()}${first.slice(1)} ${word(1)} ${word(2)} ${index}`;
}

export function heavyNotePath(index: number): string {
	return `Area ${Math.floor(index / NOTES_PER_FOLDER)}/${title(index)}.md`;
}

/** Whether note `index` has `#heavy`: exactly 735 of every 10,000 consecutive notes (7919 is prime to 10,000). */
function isTagged(index: number): boolean {
	return (index * 7919) % 10_000 < 735;
}

function linkTo(index: number, form: number, from: number): string {
	const name = title(index);
	const folder = `Area ${Math.floor(index / NOTES_PER_FOLDER)}`;
	const encoded = name.replace(/ /g, "%20");
	switch (form % 7) {
		case 0:
			return `[[${name}]]`;
		case 1:
			return `[[${name}#Summary|the summary of ${name.toLowerCase()}]]`;
		case 2:
			return `[details](${encoded}.md)`;
		case 3:
			return `[[${folder}/${name}|${name}]]`;
		case 4:
			return `![[${name}#Part 3]]`;
		case 5:
			return `[by path](<${folder}/${name}.md>)`;
		default:
			return Math.floor(from / NOTES_PER_FOLDER) === Math.floor(index / NOTES_PER_FOLDER)
				? `[beside it](./${encoded}.md)`
				: `[[${name}]]`;
	}
}

function prose(next: () => number): string {
	const paragraphs: string[] = [];
	for (let paragraph = 0; paragraph < 6; paragraph++) {
		const words: string[] = [];
		for (let word = 0; word < 84; word++) words.push(PROSE_WORDS[next() % PROSE_WORDS.length] ?? "");
		paragraphs.push(
			paragraph % 3 === 0 ? `\n## Part ${paragraph + 1}\n\n${words.join(" ")}.` : `\n${words.join(" ")}.`,
		);
	}
	return paragraphs.join("\n");
}

function noteText(index: number, count: number, next: () => number, facts: HeavyVaultFacts): string {
	const tagged = isTagged(index);
	const status = STATUSES[index % STATUSES.length] ?? "open";
	const inFrontmatter = tagged && index % 2 === 0;
	const lines = [
		"---",
		`title: ${title(index)}`,
		`created: 2024-${String((index % 12) + 1).padStart(2, "0")}-${String((index % 28) + 1).padStart(2, "0")}`,
		...(inFrontmatter ? [`tags: [${HEAVY_TAG}, status/${status}]`] : []),
		...(index % 10 === 3 ? [`related: "[[${title((index + 1) % count)}]]"`] : []),
		"---",
		`# ${title(index)}`,
		"",
		`A few sentences about ${title(index).toLowerCase()}, the note's summary. ^note-${index}`,
		"",
	];
	let links = index % 10 === 3 ? 1 : 0;
	const outgoing: string[] = [];
	for (let link = 0; link < 7; link++)
		outgoing.push(linkTo((index + (link + 1) * 7919) % count, link + index, index));
	links += outgoing.length;
	lines.push(`See ${outgoing.slice(0, 3).join(", ")}.`, "", `Also ${outgoing.slice(3).join(" and ")}.`, "");
	if (tagged && !inFrontmatter) lines.push(`Filed under #${HEAVY_TAG} and #status/${status}.`, "");
	lines.push("## Summary", "", prose(next));
	if (index % 4 === 1) {
		// Links and tags in code: never links, never tags.
		lines.push(
			"",
			"```markdown",
			`[[${title((index + 3) % count)}]] and #${CODE_ONLY_TAG} inside a fence`,
			"```",
			"",
			`Inline: \`[[${title((index + 5) % count)}]]\` and \`#${CODE_ONLY_TAG}\` stay code.`,
		);
	}
	if (index % 25 === 1) {
		lines.push("", `A link to [[Nowhere ${index}]] that does not resolve.`);
		links++;
	}
	facts.links += links;
	if (tagged) facts.taggedNotes++;
	return `${lines.join("\n")}\n`;
}

/** Writes `count` notes and the hub into `root` (an empty or missing folder); returns what a correct index finds. */
export function generateHeavyVault(root: string, count: number): HeavyVaultFacts {
	const facts: HeavyVaultFacts = {
		notes: count + 1,
		bytes: 0,
		links: 0,
		taggedNotes: 0,
		hubSources: [],
		phraseNotes: [],
	};
	const next = lcg(31);
	const hubStep = Math.floor(count / 200);
	const phraseAt = new Set([17, Math.floor(count / 2) + 11, count - 3]);
	for (let folder = 0; folder * NOTES_PER_FOLDER < count; folder++)
		mkdirSync(join(root, `Area ${folder}`), { recursive: true });
	for (let index = 0; index < count; index++) {
		let text = noteText(index, count, next, facts);
		if (index % hubStep === 0 && index / hubStep < 200) {
			const backlink = index / hubStep;
			const form = HUB_LINK_FORMS[backlink % HUB_LINK_FORMS.length] ?? "";
			text += `\nBacklink ${backlink}: ${form}; \`[[Popular Note]]\` in code stays.\n`;
			facts.hubSources.push(heavyNotePath(index));
			facts.links++;
		} else if (index % hubStep === 7) {
			// Mentions of the hub that are no links: in a fence, and in a code span.
			text += "\n```\n[[Popular Note]]\n```\n\nThe words Popular Note, and `[[Popular Note]]` in code.\n";
		}
		if (phraseAt.has(index)) {
			text += `\nA quokka jumped over the ${RARE_PHRASE.split(" ")[1]}; quokka marmalade for breakfast.\n`;
			facts.phraseNotes.push(heavyNotePath(index));
		}
		writeFileSync(join(root, heavyNotePath(index)), text);
		facts.bytes += Buffer.byteLength(text);
	}
	mkdirSync(join(root, "Hub"), { recursive: true });
	const hub = "---\ntags: [hub]\n---\n# Popular\n\n## Section\n\nMany notes link here. ^hub-block\n";
	writeFileSync(join(root, HUB), hub);
	facts.bytes += hub.length;
	return facts;
}
