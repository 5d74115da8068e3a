/**
 * Attachments become the CLI's own `@` mentions in the prompt, so the CLI reads the notes itself (as the Read
 * tool, under the user's own permission rules) exactly as when the user types them in the terminal.
 * CLI 2.1.330: `@path`, `@path#L3-5` (lines 3 to 5), `@path#L3` (line 3); a path with whitespace is quoted as a
 * whole, range included: `@"My notes/A b.md#L3-5"`.
 */
import type { MessageAttachment, UserMessage } from "./agent-session";

export function mentionOf(attachment: MessageAttachment): string {
	const { lines } = attachment;
	const range = lines === undefined ? "" : lines.from === lines.to ? `#L${lines.from}` : `#L${lines.from}-${lines.to}`;
	const target = `${attachment.path}${range}`;
	return /\s/.test(target) ? `@"${target}"` : `@${target}`;
}

/** The prompt text the CLI receives: the mentions first (as the CLI's editor inserts them), then what the user typed. */
export function promptText(message: UserMessage): string {
	const mentions = [...new Set(message.attachments.map(mentionOf))];
	return mentions.length === 0 ? message.text : `${mentions.join(" ")} ${message.text}`;
}
