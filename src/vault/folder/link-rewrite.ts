import type { LinkFact } from "../markdown/note-model";

/**
 * The text of `link` changed so that its file part leads to `target` from `sourcePath`, keeping everything else
 * as written: embed mark, heading or block subpath, alias, Markdown link text and title, `<angle brackets>` and
 * percent-encoding. Tries the shortest spelling first and returns the first that `resolves` confirms; undefined
 * when none does.
 */
export function rewriteLink(
	link: LinkFact,
	target: string,
	sourcePath: string,
	resolves: (linkpath: string) => string | undefined,
): string | undefined {
	const original = link.original;
	if (original.startsWith("[[") || original.startsWith("![[")) return rewriteWikilink(original, target, resolves);
	return rewriteMarkdownLink(original, target, sourcePath, resolves);
}

function rewriteWikilink(
	original: string,
	target: string,
	resolves: (linkpath: string) => string | undefined,
): string | undefined {
	const open = original.startsWith("!") ? 3 : 2;
	const inner = original.slice(open, -2);
	const cut = firstIndexOf(inner, ["#", "|"]);
	let oldPath = cut < 0 ? inner : inner.slice(0, cut);
	let rest = cut < 0 ? "" : inner.slice(cut);
	if (oldPath.endsWith("\\")) {
		// In a table the alias pipe is written `\|`.
		oldPath = oldPath.slice(0, -1);
		rest = `\\${rest}`;
	}
	const keepExtension = /\.md$/i.test(oldPath.trim());
	const full = keepExtension ? target : target.replace(/\.md$/i, "");
	const name = full.slice(full.lastIndexOf("/") + 1);
	for (const candidate of unique([name, full])) {
		if (resolves(candidate) === target) return `${original.slice(0, open)}${candidate}${rest}]]`;
	}
	return undefined;
}

function rewriteMarkdownLink(
	original: string,
	target: string,
	sourcePath: string,
	resolves: (linkpath: string) => string | undefined,
): string | undefined {
	const destination = /\]\(\s*(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))*)/d.exec(original);
	const span = destination?.indices?.[1];
	if (!destination || !span) return undefined;
	const raw = destination[1] ?? "";
	const angled = raw.startsWith("<");
	const bare = angled ? raw.slice(1, -1) : raw;
	const hash = bare.indexOf("#");
	const oldPath = hash < 0 ? bare : bare.slice(0, hash);
	const subpath = hash < 0 ? "" : bare.slice(hash);
	const keepExtension = !/\.md$/i.test(target) || /\.md$/i.test(safeDecode(oldPath));
	const full = keepExtension ? target : target.replace(/\.md$/i, "");
	const name = full.slice(full.lastIndexOf("/") + 1);
	const relative = relativePath(sourcePath, full);
	const wasRelative = /^\.\.?\//.test(oldPath);
	const order = wasRelative
		? [relative, full, name]
		: oldPath.includes("/") || oldPath.includes("%2F")
			? [full, name, relative]
			: [name, full, relative];
	const encoded = !angled && (oldPath.includes("%") || !/\s/.test(safeDecode(oldPath)));
	for (const candidate of unique(order)) {
		if (resolves(candidate) !== target) continue;
		const spelled = angled ? candidate : encoded || /\s/.test(candidate) ? encodePath(candidate) : candidate;
		const newDestination = angled || /[<>]/.test(spelled) ? `<${spelled}${subpath}>` : `${spelled}${subpath}`;
		if (angled && /[<>]/.test(candidate)) continue;
		return original.slice(0, span[0]) + newDestination + original.slice(span[1]);
	}
	return undefined;
}

function encodePath(path: string): string {
	return path
		.split("/")
		.map((part) => encodeURIComponent(part))
		.join("/");
}

function relativePath(sourcePath: string, targetPath: string): string {
	const from = sourcePath.split("/").slice(0, -1);
	const to = targetPath.split("/");
	let common = 0;
	while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
	const ups = from.length - common;
	const rest = to.slice(common).join("/");
	return ups === 0 ? `./${rest}` : `${"../".repeat(ups)}${rest}`;
}

function firstIndexOf(text: string, needles: string[]): number {
	const found = needles.map((needle) => text.indexOf(needle)).filter((index) => index >= 0);
	return found.length === 0 ? -1 : Math.min(...found);
}

function unique(values: string[]): string[] {
	return [...new Set(values)];
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}
