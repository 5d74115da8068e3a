import type { JsonObject } from "../protocol/json-rpc";

/** What a path-like argument names, as the vault's privacy boundary decides: a visible note, a private one, or neither. */
export type NoteReference = { path: string } | "private" | undefined;

/** The privacy decision the summary applies (built by the assembly over `VaultPrivacy`). */
export interface NoteReferences {
	classify(value: string): NoteReference;
}

export interface ArgumentSummary {
	/** One line, at most `MAX_SUMMARY` characters. */
	text: string;
	/** The visible notes the arguments named. */
	notes: string[];
	/** The arguments named a private note: nothing else of them is kept, and the call's error text is withheld. */
	private: boolean;
}

export const MAX_SUMMARY = 240;
/** Characters of a text argument kept (a note's text is never kept beyond this). */
export const MAX_EXCERPT = 40;
export const WITHHELD = "(withheld)";
export const PRIVATE_NOTE = "(a private note)";

/** Argument names whose values may be credentials: never kept. */
const SECRET_NAME = /token|secret|password|passwd|auth|bearer|api[-_]?key|credential|cookie/i;
/** Argument names that hold a note's path, a wikilink or a file URI. */
const REFERENCE_NAME = /path|file|uri|note|^to$|^from$|target|source|link/i;
/** Argument names that hold a text, though they may name a file too (`openDiff`'s `new_file_contents`): never a path. */
const TEXT_NAME = /content|text|body/i;
/** A run of characters that may be a token or key: long, letters and digits mixed. */
const TOKEN_LIKE = /[A-Za-z0-9_\-+/=.~]{20,}/g;

/**
 * A short summary of a call's arguments for the journal: the notes it names (a private one only as
 * "(a private note)", and then no text argument at all), short excerpts of other strings with anything that
 * looks like a token cut out, and credentials never.
 */
export function summarizeArguments(args: JsonObject, references: NoteReferences): ArgumentSummary {
	const notes: string[] = [];
	let isPrivate = false;
	const names = Object.keys(args);
	const named: (string | undefined)[] = [];
	for (const name of names) {
		const value = args[name];
		let shown: string | undefined;
		if (typeof value === "string" && kindOfName(name) === "reference") {
			const reference = references.classify(value);
			if (reference === "private") {
				isPrivate = true;
				shown = PRIVATE_NOTE;
			} else if (reference) {
				if (!notes.includes(reference.path)) notes.push(reference.path);
				shown = reference.path;
			}
		}
		named.push(shown);
	}
	let text = "";
	for (const [index, name] of names.entries()) {
		// Past MAX_SUMMARY the rest would be cut off anyway.
		if (text.length > MAX_SUMMARY) break;
		text += `${index > 0 ? " " : ""}${name}=${named[index] ?? describeValue(name, args[name], isPrivate)}`;
	}
	return { text: shorten(text, MAX_SUMMARY), notes, private: isPrivate };
}

/** What an argument's name says of its value: a credential, a note's path or link, or other. */
type NameKind = "secret" | "reference" | "other";

/** The kinds of names seen (a call's arguments repeat the same few names); bounded, as clients choose the names. */
const nameKinds = new Map<string, NameKind>();
const MAX_NAME_KINDS = 256;

function kindOfName(name: string): NameKind {
	let kind = nameKinds.get(name);
	if (kind === undefined) {
		kind = SECRET_NAME.test(name)
			? "secret"
			: !TEXT_NAME.test(name) && REFERENCE_NAME.test(name)
				? "reference"
				: "other";
		if (nameKinds.size < MAX_NAME_KINDS) nameKinds.set(name, kind);
	}
	return kind;
}

function describeValue(name: string, value: unknown, withholdText: boolean): string {
	if (kindOfName(name) === "secret") return WITHHELD;
	if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
	if (withholdText && typeof value === "object") return WITHHELD;
	if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? "" : "s"}]`;
	if (typeof value === "object")
		return `{${Object.keys(value)
			.map((key) => (SECRET_NAME.test(key) ? WITHHELD : shorten(redactTokens(key), 20)))
			.join(", ")}}`;
	if (typeof value !== "string" || withholdText) return WITHHELD;
	return JSON.stringify(shorten(redactTokens(value.replace(/\s+/g, " ")), MAX_EXCERPT));
}

/** A message for the journal (an error's first line): tokens cut out, shortened; withheld for a private call. */
export function summarizeDetail(message: string, isPrivate: boolean): string | undefined {
	if (isPrivate) return WITHHELD;
	const firstLine = message.split(/\r?\n/, 1)[0] ?? "";
	return firstLine === "" ? undefined : shorten(redactTokens(firstLine), 160);
}

/** Replaces every run that could be a token (20+ token characters with both letters and digits) by "…". */
export function redactTokens(text: string): string {
	return text.replace(TOKEN_LIKE, (run) => (/[0-9]/.test(run) && /[A-Za-z]/.test(run) ? "…" : run));
}

function shorten(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
