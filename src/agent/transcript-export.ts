import { toolSummary, usageLine, type TranscriptEntry } from "./transcript";

export interface TranscriptExportMeta {
	/** The CLI's session id, when known. */
	sessionId?: string;
	/** The tab's title (the first line the user wrote). */
	title: string;
	exportedAt: Date;
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenceFor(text: string): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
	return "`".repeat(longest + 1);
}

/** Quotes each line of the user's text, so its own Markdown stays theirs and reads apart from Claude's replies. */
function quoted(text: string): string {
	return text
		.split("\n")
		.map((line) => (line === "" ? ">" : `> ${line}`))
		.join("\n");
}

/**
 * A session as a Markdown note: frontmatter (session id, export time), then each message in order: the user's
 * messages quoted under "You", Claude's replies as written, tool calls and permission answers as one line each,
 * a usage line per turn. Queued messages that never reached Claude are left out.
 */
export function transcriptAsMarkdown(entries: readonly TranscriptEntry[], meta: TranscriptExportMeta): string {
	const lines: string[] = ["---", `claude-session: ${JSON.stringify(meta.sessionId ?? "")}`, `exported: ${meta.exportedAt.toISOString()}`, "---", "", `# ${meta.title.replace(/\n/g, " ")}`, ""];
	for (const entry of entries) {
		switch (entry.kind) {
			case "user":
				if (entry.state === "queued") break;
				lines.push("**You**", "", quoted(entry.text));
				if (entry.attachments.length > 0) lines.push("", `Attached: ${entry.attachments.map((attachment) => `[[${attachment.path}]]`).join(", ")}`);
				lines.push("");
				break;
			case "assistant":
				lines.push("**Claude**", "", entry.text, "");
				break;
			case "tool": {
				lines.push(`- Tool \`${entry.toolName}\` (${entry.status}): ${toolSummary(entry.input)}`);
				if (entry.result !== undefined && entry.result !== "") {
					const fence = fenceFor(entry.result);
					lines.push("", fence, entry.result.length > 2000 ? `${entry.result.slice(0, 2000)}\n…` : entry.result, fence);
				}
				lines.push("");
				break;
			}
			case "permission":
				lines.push(`- Permission for \`${entry.request.toolName}\`: ${entry.request.summary} (${entry.status})`, "");
				break;
			case "usage":
				lines.push(`*${usageLine(entry.usage, entry.outcome)}*`, "");
				break;
			case "notice":
				lines.push(`> [!note] ${entry.text}`, "");
				break;
		}
	}
	return `${lines.join("\n").trimEnd()}\n`;
}
