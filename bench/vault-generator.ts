import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const NOTES_PER_FOLDER = 100;
/** One note in this many links to a note that does not exist, and one in this many to a missing heading. */
const BROKEN_LINK_EVERY = 25;
const MISSING_HEADING_EVERY = 40;

export function benchNotePath(index: number): string {
	return `Area ${Math.floor(index / NOTES_PER_FOLDER)}/Topic ${index}.md`;
}

function noteText(index: number, count: number): string {
	const neighbour = (offset: number): number => (index + offset * 7919) % count;
	const lines = [
		"---",
		`title: Topic ${index}`,
		"tags: [bench]",
		"---",
		`# Topic ${index}`,
		"",
		`See [[Topic ${neighbour(1)}]], [[Topic ${neighbour(2)}#Summary|the summary]] and [details](Topic%20${neighbour(3)}.md).`,
		"",
		"## Summary",
		"",
		`A few sentences about topic ${index}, with \`[[code, not a link]]\` and a block id. ^topic-${index}`,
	];
	if (index % BROKEN_LINK_EVERY === 1) lines.push(`A link to [[Nowhere ${index}]] that does not resolve.`);
	if (index % MISSING_HEADING_EVERY === 2) lines.push(`A link to [[Topic ${neighbour(4)}#No such heading]].`);
	return `${lines.join("\n")}\n`;
}

/** Writes `count` linked notes (some links broken) into `root`, 100 per folder. */
export function generateLinkedVault(root: string, count: number): void {
	for (let folder = 0; folder * NOTES_PER_FOLDER < count; folder++)
		mkdirSync(join(root, `Area ${folder}`), { recursive: true });
	for (let index = 0; index < count; index++) writeFileSync(join(root, benchNotePath(index)), noteText(index, count));
}

/** Writes a note of exactly `bytes` bytes of plain ASCII Markdown. */
export function writeLargeNote(path: string, bytes: number): void {
	const line = "A line of a large note, long enough to look like prose and wrap in the editor.\n";
	writeFileSync(path, line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));
}
