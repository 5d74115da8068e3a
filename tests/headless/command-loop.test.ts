import { PassThrough } from "node:stream";
import { helpText, runCommandLoop, splitWords, type HeadlessCommand } from "../../src/headless/command-loop";
import { waitUntil } from "../helpers/wait-until";

describe("splitWords", () => {
	it("splits at white space and groups double-quoted words, with backslash escapes", () => {
		expect(splitWords('open "My note.md"  now')).toEqual(["open", "My note.md", "now"]);
		expect(splitWords('say "a \\"quoted\\" word"')).toEqual(["say", 'a "quoted" word']);
		expect(splitWords('empty ""')).toEqual(["empty", ""]);
		expect(splitWords("   ")).toEqual([]);
	});

	it("refuses a line whose quote is never closed, instead of reading the quote as text", () => {
		expect(() => splitWords('open "My note.md')).toThrow('Unclosed quote in: open "My note.md (close it with ")');
		expect(() => splitWords('say "a \\" b')).toThrow("Unclosed quote");
		expect(splitWords('say "a \\"" b')).toEqual(["say", 'a "', "b"]);
	});
});

describe("helpText", () => {
	it("lists each command's usage, aligned, and summary", () => {
		const commands = new Map<string, HeadlessCommand>([
			["status", { usage: "status", summary: "what runs", run: () => undefined }],
			["open", { usage: "open <path>", summary: "open a note", run: () => undefined }],
		]);
		expect(helpText(commands)).toBe(
			`Commands:\n  ${"status".padEnd(44)} what runs\n  ${"open <path>".padEnd(44)} open a note`,
		);
	});
});

describe("runCommandLoop", () => {
	it("runs one command per line, in order even when slow, printing answers and errors and going on", async () => {
		const input = new PassThrough();
		const printed: string[] = [];
		const errors: string[] = [];
		let release!: () => void;
		const slow = new Promise<void>((resolve) => (release = resolve));
		const commands = new Map<string, HeadlessCommand>([
			["slow", { usage: "slow", summary: "", run: async () => (await slow, "slow done") }],
			["echo", { usage: "echo <words>", summary: "", run: (args) => args.join("|") }],
			["quiet", { usage: "quiet", summary: "", run: () => undefined }],
			["fail", { usage: "fail", summary: "", run: () => Promise.reject(new Error("it broke")) }],
		]);
		runCommandLoop(
			input,
			commands,
			(line) => printed.push(line),
			(line) => errors.push(line),
		);
		input.write('slow\necho a "b c"\n\nquiet\nnope x\nfail\necho "half\necho after\n');
		await new Promise((resolve) => setImmediate(resolve));
		expect(printed).toEqual([]);
		release();
		await waitUntil(() => printed.length === 3, "every answer to be printed");
		expect(printed).toEqual(["slow done", "a|b c", "after"]);
		expect(errors).toEqual([
			'Unknown command: nope. Type "help" for the list.',
			"fail failed: it broke",
			'Unclosed quote in: echo "half (close it with ")',
		]);
		input.end();
	});

	it("runs a command that answers at once in the turn its line arrives (a select's push waits for no promise)", () => {
		const input = new PassThrough();
		const printed: string[] = [];
		const commands = new Map<string, HeadlessCommand>([
			["echo", { usage: "echo <words>", summary: "", run: (args) => args.join("|") }],
		]);
		runCommandLoop(
			input,
			commands,
			(line) => printed.push(line),
			() => undefined,
		);
		input.write("echo a b\necho c\n");
		expect(printed).toEqual(["a|b", "c"]);
		input.end();
	});

	it("keeps a line that arrives while an asynchronous command runs until that command is done", async () => {
		const input = new PassThrough();
		const printed: string[] = [];
		let release!: () => void;
		const slow = new Promise<void>((resolve) => (release = resolve));
		const commands = new Map<string, HeadlessCommand>([
			["slow", { usage: "slow", summary: "", run: async () => (await slow, "slow done") }],
			["echo", { usage: "echo <words>", summary: "", run: (args) => args.join("|") }],
		]);
		runCommandLoop(
			input,
			commands,
			(line) => printed.push(line),
			() => undefined,
		);
		input.write("slow\n");
		input.write("echo first\n");
		expect(printed).toEqual([]);
		release();
		await waitUntil(() => printed.length === 2, "both answers");
		input.write("echo second\n");
		expect(printed).toEqual(["slow done", "first", "second"]);
		input.end();
	});
});
