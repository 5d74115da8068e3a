import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { describeError } from "../shared/describe-error";

export interface HeadlessCommand {
	/** e.g. `status` or `open <path>` */
	usage: string;
	summary: string;
	run(args: string[]): Promise<string | undefined> | string | undefined;
}

/**
 * Splits a command line into words; double quotes group words with spaces ("My note.md"), a backslash inside them
 * takes the next character as it is. A quoted word that is never closed is an error, not text.
 */
export function splitWords(line: string): string[] {
	const words: string[] = [];
	let at = 0;
	const isSpace = (index: number): boolean => /\s/.test(line.charAt(index));
	while (at < line.length) {
		if (isSpace(at)) {
			at++;
		} else if (line.charAt(at) === '"') {
			let word = "";
			for (at++; at < line.length && line.charAt(at) !== '"'; at++) {
				if (line.charAt(at) === "\\" && at + 1 < line.length) at++;
				word += line.charAt(at);
			}
			if (at >= line.length) throw new Error(`Unclosed quote in: ${line} (close it with ")`);
			at++;
			words.push(word);
		} else {
			const start = at;
			while (at < line.length && !isSpace(at)) at++;
			words.push(line.slice(start, at));
		}
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
	let words: string[];
	try {
		words = splitWords(line.trim());
	} catch (error) {
		printError(describeError(error));
		return;
	}
	const [name, ...args] = words;
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
