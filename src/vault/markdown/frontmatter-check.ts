import { describeError } from "../../shared/describe-error";
import type { FrontmatterProblem } from "./note-model";
import { simpleYamlMap } from "./simple-yaml";

/** Parses YAML and throws on invalid input: Obsidian's `parseYaml`, or a library's `parse` on the headless side. */
export type YamlParser = (yaml: string) => unknown;

export interface FrontmatterBlock {
	/** Line of the closing `---`. */
	endLine: number;
	/** The lines between the fences, joined with `\n`. */
	yaml: string;
}

/** The `---` block at the very start of a note, as Obsidian recognises it (closed by another `---` line). */
export function findFrontmatter(lines: readonly string[]): FrontmatterBlock | undefined {
	if (lines.length < 2 || !isFence(lines[0] ?? "")) return undefined;
	for (let line = 1; line < lines.length; line++) {
		if (isFence(lines[line] ?? "")) return { endLine: line, yaml: lines.slice(1, line).join("\n") };
	}
	return undefined;
}

/** Checks the frontmatter block of a note; undefined when it is absent or valid. */
export function checkFrontmatter(lines: readonly string[], parseYaml: YamlParser): FrontmatterProblem | undefined {
	const block = findFrontmatter(lines);
	if (!block) return undefined;
	// Plain `key: value` lines (most frontmatter) are a valid map to any YAML parser: no parse needed to say so.
	if (simpleYamlMap(block.yaml)) return undefined;
	let parsed: unknown;
	try {
		parsed = parseYaml(block.yaml);
	} catch (error) {
		const where = yamlErrorLine(error);
		// The parser counts lines inside the block; the block starts on file line 1.
		const line = where === undefined ? 0 : Math.min(Math.max(where + 1, 1), block.endLine);
		return { message: `Invalid frontmatter YAML: ${yamlErrorMessage(error)}`, range: wholeLine(lines, line) };
	}
	if (parsed !== null && parsed !== undefined && (typeof parsed !== "object" || Array.isArray(parsed))) {
		return {
			message: "Invalid frontmatter: properties must be `key: value` pairs, not a single value or a list",
			range: wholeLine(lines, Math.min(1, block.endLine)),
		};
	}
	return undefined;
}

function isFence(line: string): boolean {
	return line.trimEnd() === "---";
}

function wholeLine(lines: readonly string[], line: number): FrontmatterProblem["range"] {
	return { start: { line, character: 0 }, end: { line, character: (lines[line] ?? "").length } };
}

/** The 0-based line of a YAML error, from js-yaml (`mark.line`, 0-based) or eemeli/yaml (`linePos`, 1-based). */
function yamlErrorLine(error: unknown): number | undefined {
	if (typeof error !== "object" || error === null) return undefined;
	const mark: unknown = (error as { mark?: unknown }).mark;
	if (typeof mark === "object" && mark !== null) {
		const line: unknown = (mark as { line?: unknown }).line;
		if (typeof line === "number") return line;
	}
	const linePos: unknown = (error as { linePos?: unknown }).linePos;
	if (Array.isArray(linePos)) {
		const first: unknown = linePos[0];
		if (typeof first === "object" && first !== null) {
			const line: unknown = (first as { line?: unknown }).line;
			if (typeof line === "number") return line - 1;
		}
	}
	return undefined;
}

/** The first line of the parser's message, without the code excerpt parsers append. */
function yamlErrorMessage(error: unknown): string {
	const text = describeError(error);
	const first = text.split("\n", 1)[0]?.trim() ?? "";
	return first.replace(/:$/, "") || "the YAML does not parse";
}
