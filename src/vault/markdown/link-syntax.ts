import type { LinkFact } from "./note-model";

const WIKILINK = /!?\[\[([^[\]]+)\]\]/g;
// [text](target "title"): the text may hold one level of brackets; the target is <...> or has balanced parens.
const MARKDOWN_LINK =
	/!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)/dg;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The wikilinks, embeds and Markdown links on one line. `masked` is the line with code and comments blanked
 * (same length); text is taken from `original` so positions and spelling are exact.
 */
export function findLinks(original: string, masked: string, line: number): LinkFact[] {
	const links: LinkFact[] = [];
	// Both kinds of link start with a bracket.
	if (!masked.includes("[")) return links;
	// A Markdown link holds `](`: without one only wikilinks are looked for (and nothing is blanked for them).
	const markdown = masked.includes("](");
	let blanked: string[] | undefined;
	let copiedTo = 0;
	for (const match of masked.matchAll(WIKILINK)) {
		const start = match.index;
		if (isEscaped(masked, start)) continue;
		const end = start + match[0].length;
		const link = wikilink(original.slice(start, end), line, start);
		if (link) links.push(link);
		if (markdown) {
			// The line without its wikilinks (blanked, same length), for the Markdown links: built once.
			blanked ??= [];
			blanked.push(masked.slice(copiedTo, start), " ".repeat(end - start));
			copiedTo = end;
		}
	}
	if (!markdown) return links;
	const rest = blanked ? blanked.join("") + masked.slice(copiedTo) : masked;
	const wikilinks = links.length;
	for (const match of rest.matchAll(MARKDOWN_LINK)) {
		const start = match.index;
		if (isEscaped(rest, start)) continue;
		const [targetStart, targetEnd] = match.indices?.[1] ?? [start, start];
		const link = markdownLink(
			original.slice(start, start + match[0].length),
			original.slice(targetStart, targetEnd),
			line,
			start,
		);
		if (link) links.push(link);
	}
	return wikilinks === 0 || wikilinks === links.length ? links : inLineOrder(links, wikilinks);
}

/**
 * Wikilinks (`links` before `split`) and Markdown links (from `split`), each kind in line order and never at the
 * same place, merged into line order (what sorting by start gives, without a sort's copy of the array).
 */
function inLineOrder(links: readonly LinkFact[], split: number): LinkFact[] {
	const merged: LinkFact[] = [];
	let wiki = 0;
	let markdown = split;
	while (wiki < split || markdown < links.length) {
		const a = links[wiki];
		const b = links[markdown];
		if (a && wiki < split && (!b || a.start < b.start)) {
			merged.push(a);
			wiki++;
		} else if (b) {
			merged.push(b);
			markdown++;
		}
	}
	return merged;
}

/** URLs (`https:`, `mailto:`, `obsidian:` …) and protocol-relative `//host` targets are not vault links. */
export function isExternalTarget(target: string): boolean {
	return URL_SCHEME.test(target) || target.startsWith("//");
}

function isEscaped(text: string, index: number): boolean {
	let slashes = 0;
	for (let i = index - 1; i >= 0 && text.charAt(i) === "\\"; i--) slashes++;
	return slashes % 2 === 1;
}

function wikilink(original: string, line: number, start: number): LinkFact | undefined {
	const embed = original.startsWith("!");
	const inner = original.slice(embed ? 3 : 2, -2);
	const pipe = inner.indexOf("|");
	// Inside tables the alias pipe is written `\|`.
	const target = (pipe < 0 ? inner : inner.slice(0, pipe)).replace(/\\$/, "");
	return linkFrom(target, false, embed, original, line, start);
}

function markdownLink(original: string, rawTarget: string, line: number, start: number): LinkFact | undefined {
	const target = rawTarget.startsWith("<") ? rawTarget.slice(1, -1) : rawTarget;
	if (target === "" || isExternalTarget(target)) return undefined;
	return linkFrom(target, true, original.startsWith("!"), original, line, start);
}

function linkFrom(
	target: string,
	percentEncoded: boolean,
	embed: boolean,
	original: string,
	line: number,
	start: number,
): LinkFact | undefined {
	const hash = target.indexOf("#");
	const rawPath = hash < 0 ? target : target.slice(0, hash);
	const rawSubpath = hash < 0 ? "" : target.slice(hash + 1);
	const linkpath = (percentEncoded ? safeDecode(rawPath) : rawPath).trim();
	const subpath = (percentEncoded ? safeDecode(rawSubpath) : rawSubpath).trim();
	if (linkpath === "" && subpath === "") return undefined;
	const link: LinkFact = {
		line,
		start,
		end: start + original.length,
		original,
		linkpath,
		embed,
	};
	if (subpath !== "") link.subpath = subpath;
	return link;
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}
