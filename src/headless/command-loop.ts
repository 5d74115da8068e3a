import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { describeError } from "../shared/describe-error";

export interface HeadlessCommand {
	/** e.g. `status` or `open <path>` */
	usage: string;
	summary: string;
	run(args: string[]): Promise<string | undefined> | string | undefined;
}

/** Splits a command line into words; double quotes group words with spaces ("My note.md"). */
export function splitWords(line: string): string[] {
	const words: string[] = [];
	const pattern = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
	for (let match = pattern.exec(line); match; match = pattern.exec(line)) {
		words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? ""));
	}
	return words;
}

export function helpText(commands: ReadonlyMap<string, HeadlessCommand>): string {
	const lines = [...commands.values()].map((command) => `  ${command.usage.padEnd(44)} ${command.summary}`);
	return `Commands:\n${lines.join("\n")}`;
}

/**
 * Reads commands, one per line, and prints what each answers. Commands run one at a time, in order.
 * A failing command prints its error and the loop goes on.
 */
export function runCommandLoop(
	input: Readable,
	commands: ReadonlyMap<string, HeadlessCommand>,
	print: (line: string) => void,
	printError: (line: string) => void,
): void {
	const lines = createInterface({ input, terminal: false });
	let queue = Promise.resolve();
	lines.on("line", (line) => {
		queue = queue.then(() => runLine(line, commands, print, printError));
	});
}

async function runLine(
	line: string,
	commands: ReadonlyMap<string, HeadlessCommand>,
	print: (line: string) => void,
	printError: (line: string) => void,
): Promise<void> {
	const [name, ...args] = splitWords(line.trim());
	if (name === undefined) return;
	const command = commands.get(name);
	if (!command) {
		printError(`Unknown command: ${name}. Type "help" for the list.`);
		return;
	}
	try {
		const output = await command.run(args);
		if (output !== undefined) print(output);
	} catch (error) {
		printError(`${name} failed: ${describeError(error)}`);
	}
}
