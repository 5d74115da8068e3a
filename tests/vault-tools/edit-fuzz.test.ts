import fc from "fast-check";
import { applyEdits, type EditOperation } from "../../src/vault-tools/text/apply-edits";
import { TargetError, parseTarget } from "../../src/vault-tools/text/edit-targets";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

/**
 * Fuzzing of edit_note's engine against an independent model: the generator knows every line of the note it
 * builds (which are headings and at what level, which are code, where each block id is), so the expected text
 * of every edit is computed from that knowledge alone, never from the engine's own parsing.
 */

type Block =
	| { kind: "heading"; level: number; text: string }
	| { kind: "paragraph"; lines: string[]; id?: string }
	| { kind: "code"; lines: string[] };

interface Note {
	frontmatter?: string[];
	blocks: Block[];
	eol: string;
}

interface Line {
	text: string;
	heading?: { level: number; text: string };
	block?: { id: string; first: number };
}

const word = fc.constantFrom("alpha", "beta", "gamma", "delta", "notes", "plan", "ideas", "log");
const headingBlock = fc.record({
	kind: fc.constant("heading" as const),
	level: fc.integer({ min: 1, max: 4 }),
	text: fc.array(word, { minLength: 1, maxLength: 2 }).map((words) => words.join(" ")),
});
const paragraphBlock = fc.record({
	kind: fc.constant("paragraph" as const),
	lines: fc.array(
		fc.array(word, { minLength: 1, maxLength: 5 }).map((words) => words.join(" ")),
		{ minLength: 1, maxLength: 3 },
	),
	withId: fc.boolean(),
});
const codeBlock = fc.record({
	kind: fc.constant("code" as const),
	lines: fc.array(fc.constantFrom("# not a heading", "## alpha", "text ^fake", "[[link]]"), {
		minLength: 1,
		maxLength: 3,
	}),
});

const noteArbitrary: fc.Arbitrary<Note> = fc
	.record({
		frontmatter: fc.option(
			fc.array(fc.constantFrom("title: x", "tags: [a, b]", "status: open", "n: 3"), {
				minLength: 0,
				maxLength: 3,
			}),
			{ nil: undefined },
		),
		blocks: fc.array(
			fc.oneof(
				{ weight: 3, arbitrary: headingBlock },
				{ weight: 3, arbitrary: paragraphBlock },
				{ weight: 1, arbitrary: codeBlock },
			),
			{ minLength: 1, maxLength: 14 },
		),
		eol: fc.constantFrom("\n", "\n", "\r\n"),
	})
	.map(({ frontmatter, blocks, eol }) => {
		let nextId = 1;
		const mapped: Block[] = blocks.map((block) => {
			if (block.kind !== "paragraph") return block;
			return block.withId
				? { kind: "paragraph", lines: block.lines, id: `b${nextId++}` }
				: { kind: "paragraph", lines: block.lines };
		});
		return frontmatter === undefined
			? { blocks: mapped, eol }
			: { frontmatter: [...new Set(frontmatter)], blocks: mapped, eol };
	});

/** The note's lines, each with what the generator knows about it. Blocks are separated by one blank line. */
function render(note: Note): Line[] {
	const lines: Line[] = [];
	if (note.frontmatter) lines.push({ text: "---" }, ...note.frontmatter.map((text) => ({ text })), { text: "---" });
	note.blocks.forEach((block, index) => {
		if (index > 0 || note.frontmatter) lines.push({ text: "" });
		if (block.kind === "heading")
			lines.push({
				text: `${"#".repeat(block.level)} ${block.text}`,
				heading: { level: block.level, text: block.text },
			});
		else if (block.kind === "code")
			lines.push({ text: "```" }, ...block.lines.map((text) => ({ text })), { text: "```" });
		else {
			const first = lines.length;
			block.lines.forEach((text, position) => {
				const last = position === block.lines.length - 1;
				lines.push(
					last && block.id ? { text: `${text} ^${block.id}`, block: { id: block.id, first } } : { text },
				);
			});
		}
	});
	return lines;
}

function join(lines: readonly string[], eol: string): string {
	return lines.map((line) => line + eol).join("");
}

interface HeadingAt {
	line: number;
	level: number;
	text: string;
	chain: string[];
}

function headingsOf(lines: readonly Line[]): HeadingAt[] {
	const result: HeadingAt[] = [];
	const stack: HeadingAt[] = [];
	lines.forEach((line, index) => {
		if (!line.heading) return;
		while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= line.heading.level) stack.pop();
		const heading = {
			line: index,
			level: line.heading.level,
			text: line.heading.text,
			chain: [...stack.map((parent) => parent.text), line.heading.text],
		};
		stack.push(heading);
		result.push(heading);
	});
	return result;
}

/** Whether `parts` (a heading path) names this heading: last part equal, the others among its parents in order. */
function pathMatches(heading: HeadingAt, parts: readonly string[]): boolean {
	if (heading.text !== parts[parts.length - 1]) return false;
	let from = 0;
	const parents = heading.chain.slice(0, -1);
	for (const part of parts.slice(0, -1)) {
		const found = parents.indexOf(part, from);
		if (found < 0) return false;
		from = found + 1;
	}
	return true;
}

const CONTENT = ["MARK one", "MARK two"];

/** What the note must become, or "error" when the target is missing or ambiguous. */
function expected(
	note: Note,
	target: { kind: "heading"; parts: string[] } | { kind: "block"; id: string } | { kind: "frontmatter" },
	op: EditOperation,
): string[] | "error" {
	const rendered = render(note);
	const lines = rendered.map((line) => line.text);
	const splice = (start: number, end: number, insert: string[]): string[] => [
		...lines.slice(0, start),
		...insert,
		...lines.slice(end),
	];
	if (target.kind === "heading") {
		const headings = headingsOf(rendered);
		const matches = headings.filter((heading) => pathMatches(heading, target.parts));
		if (matches.length !== 1) return "error";
		const heading = matches[0];
		const next = headings.find((other) => other.line > heading.line && other.level <= heading.level);
		const end = next ? next.line : lines.length;
		let lastContent = end;
		while (lastContent > heading.line + 1 && (lines[lastContent - 1] ?? "").trim() === "") lastContent--;
		let firstContent = heading.line + 1;
		while (firstContent < lastContent && (lines[firstContent] ?? "").trim() === "") firstContent++;
		switch (op) {
			case "replace":
				return splice(firstContent, lastContent, CONTENT);
			case "delete":
				return splice(heading.line, end, []);
			case "prepend":
				return splice(heading.line + 1, heading.line + 1, CONTENT);
			case "append":
				return splice(lastContent, lastContent, CONTENT);
			case "insert_after":
				return splice(end, end, CONTENT);
		}
	}
	if (target.kind === "block") {
		const owner = rendered.findIndex((line) => line.block?.id === target.id);
		if (owner < 0) return "error";
		const first = rendered[owner]?.block?.first ?? owner;
		switch (op) {
			case "replace":
				return splice(first, owner + 1, [CONTENT[0] ?? "", `${CONTENT[1] ?? ""} ^${target.id}`]);
			case "delete":
				return splice(first, owner + 1, []);
			case "prepend":
				return splice(first, first, CONTENT);
			case "append":
			case "insert_after":
				return splice(owner + 1, owner + 1, CONTENT);
		}
	}
	if (!note.frontmatter) return "error";
	const close = note.frontmatter.length + 1;
	const yaml = ["markone: 1", "marktwo: 2"];
	switch (op) {
		case "replace":
			return splice(1, close, yaml);
		case "delete":
			return splice(0, close + 1, []);
		case "prepend":
			return splice(1, 1, yaml);
		case "append":
			return splice(close, close, yaml);
		case "insert_after":
			return splice(close + 1, close + 1, CONTENT);
	}
}

const ops = fc.constantFrom<EditOperation>("replace", "append", "prepend", "insert_after", "delete");

describe("edit_note engine, fuzzed against a model of the note", () => {
	it("puts every heading, block and frontmatter edit exactly where the model says, or refuses it", () => {
		let applied = 0;
		let refused = 0;
		const appliedByKind = new Map<string, number>();
		fc.assert(
			fc.property(noteArbitrary, ops, fc.nat(), fc.integer({ min: 0, max: 9 }), (note, op, pick, kindPick) => {
				const rendered = render(note);
				const text = join(
					rendered.map((line) => line.text),
					note.eol,
				);
				const headings = headingsOf(rendered);
				const ids = rendered.flatMap((line) => (line.block ? [line.block.id] : []));
				let target: Parameters<typeof expected>[1];
				let spelled: string;
				if (kindPick <= 5 && headings.length > 0) {
					const heading = headings[pick % headings.length];
					// Sometimes only the last part, sometimes the whole path: both must be handled.
					const parts = pick % 3 === 0 ? [heading.text] : heading.chain;
					target = { kind: "heading", parts };
					spelled = parts.join(" > ");
				} else if (kindPick <= 7 && ids.length > 0) {
					const id = ids[pick % ids.length] ?? "";
					target = { kind: "block", id };
					spelled = `^${id}`;
				} else if (kindPick === 8) {
					target = { kind: "frontmatter" };
					spelled = "frontmatter";
				} else {
					target = { kind: "heading", parts: ["missing heading"] };
					spelled = "missing heading";
				}
				const content =
					target.kind === "frontmatter" && op !== "insert_after"
						? "markone: 1\nmarktwo: 2"
						: CONTENT.join("\n");
				const want = expected(note, target, op);
				let got: string;
				try {
					got = applyEdits(
						text,
						[{ target: parseTarget(spelled), op, content: op === "delete" ? "" : content }],
						libraryYamlCodec,
					).text;
				} catch (error) {
					if (!(error instanceof TargetError)) throw error;
					got = "error";
				}
				if (want === "error") {
					refused++;
					expect(got).toBe("error");
				} else {
					applied++;
					appliedByKind.set(target.kind, (appliedByKind.get(target.kind) ?? 0) + 1);
					expect(got).toBe(join(want, note.eol));
				}
			}),
			{ numRuns: 600, seed: 20261123 },
		);
		// The run must exercise both outcomes, or it proves little.
		expect(applied).toBeGreaterThan(200);
		expect(refused).toBeGreaterThan(30);
		for (const kind of ["heading", "block", "frontmatter"])
			expect({ kind, enough: (appliedByKind.get(kind) ?? 0) > 20 }).toEqual({ kind, enough: true });
	});

	it("applies several edits in order, all or none", () => {
		fc.assert(
			fc.property(noteArbitrary, fc.nat(), (note, pick) => {
				const rendered = render(note);
				const text = join(
					rendered.map((line) => line.text),
					note.eol,
				);
				const headings = headingsOf(rendered).filter(
					(heading, _, all) => all.filter((other) => pathMatches(other, heading.chain)).length === 1,
				);
				if (headings.length === 0) return;
				const heading = headings[pick % headings.length];
				const first = {
					target: parseTarget(heading.chain.join(" > ")),
					op: "append" as const,
					content: "MARK first",
				};
				const second = {
					target: parseTarget("missing heading"),
					op: "append" as const,
					content: "MARK second",
				};
				expect(() => applyEdits(text, [first, second], libraryYamlCodec)).toThrow(TargetError);
				const both = applyEdits(
					text,
					[
						first,
						{ target: parseTarget({ oldText: "MARK first" }), op: "replace", content: "MARK replaced" },
					],
					libraryYamlCodec,
				).text;
				const oneByOne = applyEdits(
					applyEdits(text, [first], libraryYamlCodec).text,
					[{ target: parseTarget({ oldText: "MARK first" }), op: "replace", content: "MARK replaced" }],
					libraryYamlCodec,
				).text;
				expect(both).toBe(oneByOne);
				expect(both.split("MARK replaced")).toHaveLength(2);
				expect(both.replace(`MARK replaced${note.eol}`, "")).toBe(text);
			}),
			{ numRuns: 200, seed: 7 },
		);
	});
});
