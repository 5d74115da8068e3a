/**
 * The generated vault's extra content for the vault-tools benchmarks (bench/vault-tools.ts in process,
 * bench/vault-tools-stdio.ts over stdio): prose in every note, a note with 200 backlinks in many link forms, and a
 * rare phrase in 3 notes.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lcg, PROSE_WORDS } from "./corpus-words";
import { benchNotePath } from "./vault-generator";

export const POPULAR = "Hub/Popular Note.md";
const LINK_FORMS = [
	"[[Popular Note]]",
	"[[Popular Note|the popular one]]",
	"[[Popular Note#Section]]",
	"![[Popular Note]]",
	"[[Hub/Popular Note]]",
	"[md](Popular%20Note.md)",
	"[angle](<Hub/Popular Note.md>)",
	"[rel](../Hub/Popular%20Note.md#Section)",
];

/** About 3.5 KB of deterministic prose per note, in paragraphs with a few headings. */
export function addProse(root: string, count: number): number {
	const next = lcg(12345);
	let bytes = 0;
	for (let index = 0; index < count; index++) {
		const paragraphs: string[] = [];
		for (let paragraph = 0; paragraph < 6; paragraph++) {
			const words: string[] = [];
			for (let word = 0; word < 80; word++) words.push(PROSE_WORDS[next() % PROSE_WORDS.length] ?? "");
			paragraphs.push(
				paragraph % 3 === 0 ? `\n## Part ${paragraph}\n\n${words.join(" ")}.` : `\n${words.join(" ")}.`,
			);
		}
		const prose = `${paragraphs.join("\n")}\n`;
		bytes += prose.length;
		appendFileSync(join(root, benchNotePath(index)), prose);
	}
	return bytes;
}

export function addPopularNote(root: string, count: number): void {
	mkdirSync(join(root, "Hub"), { recursive: true });
	writeFileSync(join(root, POPULAR), "---\ntags: [hub]\n---\n# Popular\n\n## Section\n\nMany notes link here.\n");
	const step = Math.floor(count / 200);
	for (let backlink = 0; backlink < 200; backlink++) {
		const index = backlink * step;
		const form = LINK_FORMS[backlink % LINK_FORMS.length] ?? "";
		appendFileSync(
			join(root, benchNotePath(index)),
			`\nBacklink ${backlink}: ${form}; \`[[Popular Note]]\` in code stays.\n`,
		);
	}
	for (const index of [17, 4711, count - 3])
		appendFileSync(join(root, benchNotePath(index % count)), "\nA quokka jumped over the marmalade.\n");
}

/** Issue 10's speed targets (ms, characters), shared by the in-process and the stdio bench. */
export const VAULT_TOOLS_TARGETS = {
	searchP50: 50,
	searchP95: 150,
	modeP50: 20,
	linksP50: 10,
	moveMs: 2000,
	firstMs: 2000,
	toolsListChars: 12_000,
	regexMainThreadMs: 50,
};
