/**
 * The small part of Markdown the panel renders in Claude's replies, parsed into plain data: paragraphs, headings,
 * lists, quotes, rules, fenced code, and inline emphasis, code spans, links and images. Nothing here runs code or
 * loads anything; the view turns these into elements with text nodes only.
 */

export type Inline =
	| { kind: "text"; text: string }
	| { kind: "strong" | "em" | "strike"; children: Inline[] }
	| { kind: "code"; text: string }
	| { kind: "link"; href: string; children: Inline[]; internal: boolean }
	| { kind: "image"; src: string; alt: string };

export type Block =
	| { kind: "paragraph"; inlines: Inline[] }
	| { kind: "heading"; level: number; inlines: Inline[] }
	| { kind: "code"; language: string; text: string }
	| { kind: "list"; ordered: boolean; items: Inline[][] }
	| { kind: "quote"; inlines: Inline[] }
	| { kind: "rule" };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const ORDERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/** Parses a reply (complete or still streaming: an open fence runs to the end) into blocks. */
export function parseReply(markdown: string): Block[] {
	const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
	const blocks: Block[] = [];
	let paragraph: string[] = [];
	const flush = (): void => {
		if (paragraph.length > 0) blocks.push({ kind: "paragraph", inlines: parseInline(paragraph.join("\n")) });
		paragraph = [];
	};
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index] ?? "";
		const fence = FENCE.exec(line);
		if (fence) {
			flush();
			const marker = fence[1] ?? "```";
			const body: string[] = [];
			index++;
			while (index < lines.length && !(lines[index] ?? "").trimStart().startsWith(marker))
				body.push(lines[index++] ?? "");
			blocks.push({ kind: "code", language: fence[2] ?? "", text: body.join("\n") });
			continue;
		}
		if (line.trim() === "") {
			flush();
			continue;
		}
		const heading = HEADING.exec(line);
		if (heading) {
			flush();
			blocks.push({ kind: "heading", level: heading[1]?.length ?? 1, inlines: parseInline(heading[2] ?? "") });
			continue;
		}
		if (RULE.test(line)) {
			flush();
			blocks.push({ kind: "rule" });
			continue;
		}
		const item = BULLET.exec(line) ?? ORDERED.exec(line);
		if (item) {
			flush();
			const ordered = ORDERED.test(line);
			const items: string[] = [item[1] ?? ""];
			while (index + 1 < lines.length) {
				const next = lines[index + 1] ?? "";
				const nextItem = ordered ? ORDERED.exec(next) : BULLET.exec(next);
				if (nextItem) items.push(nextItem[1] ?? "");
				else if (/^\s{2,}\S/.test(next) && !FENCE.test(next)) items[items.length - 1] += `\n${next.trim()}`;
				else break;
				index++;
			}
			blocks.push({ kind: "list", ordered, items: items.map(parseInline) });
			continue;
		}
		const quote = QUOTE.exec(line);
		if (quote) {
			flush();
			const quoted: string[] = [quote[1] ?? ""];
			while (index + 1 < lines.length && QUOTE.test(lines[index + 1] ?? ""))
				quoted.push(QUOTE.exec(lines[++index] ?? "")?.[1] ?? "");
			blocks.push({ kind: "quote", inlines: parseInline(quoted.join("\n")) });
			continue;
		}
		paragraph.push(line);
	}
	flush();
	return blocks;
}

/** Inline Markdown: code spans first (nothing inside them is Markdown), then images, links, wikilinks and emphasis. */
export function parseInline(text: string): Inline[] {
	const out: Inline[] = [];
	let plain = "";
	const push = (inline: Inline): void => {
		if (plain !== "") out.push({ kind: "text", text: plain });
		plain = "";
		out.push(inline);
	};
	let at = 0;
	while (at < text.length) {
		const rest = text.slice(at);
		const char = text[at] ?? "";
		if (char === "\\" && at + 1 < text.length && /[\\`*_[\]()#!~>-]/.test(text[at + 1] ?? "")) {
			plain += text[at + 1];
			at += 2;
			continue;
		}
		if (char === "`") {
			const ticks = /^`+/.exec(rest)?.[0] ?? "`";
			const end = text.indexOf(ticks, at + ticks.length);
			if (end > 0) {
				push({ kind: "code", text: text.slice(at + ticks.length, end).trim() });
				at = end + ticks.length;
				continue;
			}
		}
		const image = /^!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/.exec(rest);
		if (image) {
			push({ kind: "image", alt: image[1] ?? "", src: image[2] ?? "" });
			at += image[0].length;
			continue;
		}
		const wikilink = /^\[\[([^\]|#]+)(#[^\]|]*)?(?:\|([^\]]+))?\]\]/.exec(rest);
		if (wikilink) {
			const target = (wikilink[1] ?? "").trim();
			push({
				kind: "link",
				href: target + (wikilink[2] ?? ""),
				internal: true,
				children: [{ kind: "text", text: wikilink[3] ?? target }],
			});
			at += wikilink[0].length;
			continue;
		}
		const link = /^\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/.exec(rest);
		if (link) {
			const href = link[2] ?? "";
			push({
				kind: "link",
				href,
				internal: !/^[a-z][a-z0-9+.-]*:/i.test(href),
				children: parseInline(link[1] ?? ""),
			});
			at += link[0].length;
			continue;
		}
		const emphasis =
			/^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest) ??
			/^(~~)(?=\S)([\s\S]*?\S)~~/.exec(rest) ??
			/^([*_])(?=\S)([\s\S]*?\S)\1(?![*_])/.exec(rest);
		if (emphasis && !(char === "_" && /\w/.test(text[at - 1] ?? ""))) {
			const marker = emphasis[1] ?? "";
			push({
				kind: marker === "~~" ? "strike" : marker.length === 2 ? "strong" : "em",
				children: parseInline(emphasis[2] ?? ""),
			});
			at += emphasis[0].length;
			continue;
		}
		plain += char;
		at++;
	}
	if (plain !== "") out.push({ kind: "text", text: plain });
	return out;
}

/** A link's target the panel may open: http(s) and mailto outside, vault paths inside; anything else is shown as text. */
export function isSafeExternalHref(href: string): boolean {
	return /^(https?:|mailto:)/i.test(href);
}

/** Images from the web load only when the user clicks: they tell a server the reply was read. */
export function isRemoteImage(src: string): boolean {
	return /^[a-z][a-z0-9+.-]*:/i.test(src);
}
