import {
	isRemoteImage,
	isSafeExternalHref,
	parseReply,
	type Block,
	type Inline,
} from "../../agent/transcript/reply-markdown";

/** What rendering needs from the app: opening a vault link (the user clicked it). */
export interface ReplyLinks {
	openInternal(target: string): void;
}

/**
 * Claude's reply as elements built from text nodes only: no `innerHTML`, no `MarkdownRenderer` (which would run other
 * plugins' code block processors, `dataviewjs` and Templater among them, on text Claude wrote), and no remote
 * image fetched until the user clicks its placeholder. Every fence, whatever its language, is shown as code.
 */
export function renderReply(parent: HTMLElement, markdown: string, links: ReplyLinks): void {
	for (const block of parseReply(markdown)) renderBlock(parent, block, links);
}

function renderBlock(parent: HTMLElement, block: Block, links: ReplyLinks): void {
	switch (block.kind) {
		case "paragraph":
			renderInlines(parent.createEl("p"), block.inlines, links);
			return;
		case "heading":
			renderInlines(parent.createEl(`h${Math.min(Math.max(block.level, 1), 6)}` as "h1"), block.inlines, links);
			return;
		case "code": {
			const pre = parent.createEl("pre", { cls: "ccb-agent-code" });
			if (block.language !== "") pre.createDiv({ cls: "ccb-agent-code-language", text: block.language });
			pre.createEl("code", { text: block.text });
			return;
		}
		case "list": {
			const list = parent.createEl(block.ordered ? "ol" : "ul");
			for (const item of block.items) renderInlines(list.createEl("li"), item, links);
			return;
		}
		case "quote":
			renderInlines(parent.createEl("blockquote"), block.inlines, links);
			return;
		case "rule":
			parent.createEl("hr");
			return;
	}
}

function renderInlines(parent: HTMLElement, inlines: readonly Inline[], links: ReplyLinks): void {
	for (const inline of inlines) {
		switch (inline.kind) {
			case "text":
				parent.appendText(inline.text);
				break;
			case "strong":
			case "em":
			case "strike":
				renderInlines(parent.createEl(inline.kind === "strike" ? "del" : inline.kind), inline.children, links);
				break;
			case "code":
				parent.createEl("code", { text: inline.text });
				break;
			case "link":
				renderLink(parent, inline, links);
				break;
			case "image":
				renderImage(parent, inline.src, inline.alt);
				break;
		}
	}
}

function renderLink(parent: HTMLElement, link: Extract<Inline, { kind: "link" }>, links: ReplyLinks): void {
	if (link.internal) {
		const anchor = parent.createEl("a", {
			cls: "internal-link",
			attr: { href: link.href, "data-href": link.href },
		});
		renderInlines(anchor, link.children, links);
		anchor.addEventListener("click", (event) => {
			event.preventDefault();
			links.openInternal(decodeURI(link.href));
		});
		return;
	}
	if (!isSafeExternalHref(link.href)) {
		renderInlines(parent.createSpan({ cls: "ccb-agent-unsafe-link" }), link.children, links);
		return;
	}
	const anchor = parent.createEl("a", {
		cls: "external-link",
		attr: { href: link.href, target: "_blank", rel: "noopener noreferrer" },
	});
	renderInlines(anchor, link.children, links);
}

/** A remote image is a placeholder naming its host; the image loads only when the user clicks it. */
function renderImage(parent: HTMLElement, src: string, alt: string): void {
	if (!isRemoteImage(src) || !/^https?:/i.test(src)) {
		parent.createSpan({ cls: "ccb-agent-image-placeholder", text: `Image: ${alt || src}` });
		return;
	}
	let host = src;
	try {
		host = new URL(src).host;
	} catch {
		// Not a URL after all: the whole text names it.
	}
	const slot = parent.createSpan({ cls: "ccb-agent-image-slot" });
	const button = slot.createEl("button", {
		cls: "ccb-agent-image-placeholder",
		text: `Load image from ${host}${alt ? `: ${alt}` : ""}`,
	});
	button.addEventListener("click", () => {
		slot.empty();
		slot.createEl("img", { cls: "ccb-agent-image", attr: { src, alt } });
	});
}
