import { inertCode, inertFencedBlock, inertLine, inertMarkdown } from "../../shared/inert-markdown";
import { toolSummary, usageLine, type TranscriptEntry } from "./panel-transcript";

export interface TranscriptExportMeta {
	/** The CLI's session id, when known. */
	sessionId?: string;
	/** The tab's title (the first line the user wrote). */
	title: string;
	exportedAt: Date;
}

/** The most characters of a tool result the export keeps. */
const MAX_RESULT_CHARS = 2000;

/** Characters Obsidian gives a meaning inside a wikilink, and line breaks: a path holding one is not linked. */
const NOT_LINKABLE = /[[\]|#^\r\n]/;

/** Quotes each line of the user's text, so its own Markdown stays theirs and reads apart from Claude's replies. */
function quoted(text: string): string {
	return text
		.split("\n")
		.map((line) => (line === "" ? ">" : `> ${line}`))
		.join("\n");
}

/** An attached note as a link (the export then shows in the graph), unless its name could make the link something else. */
function attachmentLink(path: string): string {
	return NOT_LINKABLE.test(path) ? inertCode(path) : `[[${path}]]`;
}

/**
 * A session as a Markdown note: frontmatter (session id, export time), then each message in order: the user's
 * messages quoted under "You", Claude's replies, tool calls and permission answers as one line each, a usage line
 * per turn. Queued messages that never reached Claude are left out.
 *
 * Everything from outside (what the user and Claude wrote, tool inputs and results) is made inert
 * (`inert-markdown.ts`): opening the export runs no code block, loads no remote image, embeds no note and shows
 * no HTML, and no line of it can break out of its list item or block.
 */
export function transcriptAsMarkdown(entries: readonly TranscriptEntry[], meta: TranscriptExportMeta): string {
	const lines: string[] = [
		"---",
		`claude-session: ${JSON.stringify(meta.sessionId ?? "")}`,
		`exported: ${meta.exportedAt.toISOString()}`,
		"---",
		"",
		`# ${inertLine(meta.title)}`,
		"",
	];
	for (const entry of entries) {
		switch (entry.kind) {
			case "user":
				if (entry.state === "queued") break;
				lines.push("**You**", "", quoted(inertMarkdown(entry.text)));
				if (entry.attachments.length > 0)
					lines.push(
						"",
						`Attached: ${entry.attachments.map((attachment) => attachmentLink(attachment.path)).join(", ")}`,
					);
				lines.push("");
				break;
			case "assistant":
				lines.push("**Claude**", "", inertMarkdown(entry.text), "");
				break;
			case "tool": {
				lines.push(
					`- Tool ${inertCode(entry.toolName)} (${entry.status}): ${inertLine(toolSummary(entry.input))}`,
				);
				if (entry.result !== undefined && entry.result !== "") {
					lines.push(
						"",
						inertFencedBlock(
							entry.result.length > MAX_RESULT_CHARS
								? `${entry.result.slice(0, MAX_RESULT_CHARS)}\n…`
								: entry.result,
						),
					);
				}
				lines.push("");
				break;
			}
			case "permission":
				lines.push(
					`- Permission for ${inertCode(entry.request.toolName)}: ${inertLine(entry.request.summary)} (${entry.status})`,
					"",
				);
				break;
			case "usage":
				lines.push(`*${usageLine(entry.usage, entry.outcome)}*`, "");
				break;
			case "notice":
				lines.push(`> [!note] ${inertLine(entry.text)}`, "");
				break;
		}
	}
	return `${lines.join("\n").trimEnd()}\n`;
}
