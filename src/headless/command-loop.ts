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
	// Most lines have no quote: split at once (\s as below).
	if (!line.includes('"')) return line.split(/\s+/).filter((word) => word !== "");
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
 * Reads commands, one per line, and prints what each answers. Commands run one at a time, in order: a line waits
 * while an asynchronous command before it still runs, and otherwise runs at once (a `select` is pushed to the
 * client in the same turn as its line is read, without a promise hop). A failing command prints its error and the
 * loop goes on.
 */
export function runCommandLoop(
	input: Readable,
	commands: ReadonlyMap<string, HeadlessCommand>,
	print: (line: string) => void,
	printError: (line: string) => void,
): void {
	const lines = createInterface({ input, terminal: false });
	/** The last line still running (or waiting for one that runs), while any is. */
	let running: Promise<void> | undefined;
	const wait = (pending: Promise<void>): void => {
		running = pending;
		void pending.then(() => {
			if (running === pending) running = undefined;
		});
	};
	lines.on("line", (line) => {
		if (running) {
			wait(running.then(() => runLine(line, commands, print, printError)));
			return;
		}
		const pending = runLine(line, commands, print, printError);
		if (pending) wait(pending);
	});
}

/** Runs one line; a promise while an asynchronous command still runs, undefined once the line is done. */
function runLine(
	line: string,
	commands: ReadonlyMap<string, HeadlessCommand>,
	print: (line: string) => void,
	printError: (line: string) => void,
): Promise<void> | undefined {
	let words: string[];
	try {
		words = splitWords(line.trim());
	} catch (error) {
		printError(describeError(error));
		return undefined;
	}
	const [name, ...args] = words;
	if (name === undefined) return undefined;
	const command = commands.get(name);
	if (!command) {
		printError(`Unknown command: ${name}. Type "help" for the list.`);
		return undefined;
	}
	const failed = (error: unknown): void => printError(`${name} failed: ${describeError(error)}`);
	let output;
	try {
		output = command.run(args);
	} catch (error) {
		failed(error);
		return undefined;
	}
	if (!(output instanceof Promise)) {
		if (output !== undefined) print(output);
		return undefined;
	}
	return output.then((text) => {
		if (text !== undefined) print(text);
	}, failed);
}
