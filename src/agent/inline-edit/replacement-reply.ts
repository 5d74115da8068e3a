import { REPLACEMENT_CLOSE, REPLACEMENT_OPEN } from "./inline-edit-prompt";

/** What of Claude's new passage has arrived; `complete` once its closing tag came. */
export interface ReplacementSoFar {
	text: string;
	complete: boolean;
}

/**
 * Reads Claude's reply to an inline edit as it streams: the new passage is what stands between the tags. The
 * passage keeps its own whitespace at both ends (the line breaks around a selected paragraph, the space after a
 * selected word): Claude's whitespace there is a matter of layout, never of the edit.
 */
export class ReplacementReader {
	private reply = "";
	private readonly leading: string;
	private readonly trailing: string;

	constructor(passage: string) {
		this.leading = /^\s*/.exec(passage)?.[0] ?? "";
		this.trailing = /\s*$/.exec(passage.slice(this.leading.length))?.[0] ?? "";
	}

	/** Everything Claude wrote so far. */
	get text(): string {
		return this.reply;
	}

	append(delta: string): void {
		this.reply += delta;
	}

	/**
	 * The new passage so far; undefined until the opening tag arrived. With `replyEnded`, a passage whose closing tag
	 * never came is taken as complete.
	 */
	current(replyEnded = false): ReplacementSoFar | undefined {
		const open = this.reply.indexOf(REPLACEMENT_OPEN);
		if (open < 0) return undefined;
		const body = this.reply.slice(open + REPLACEMENT_OPEN.length);
		const close = body.indexOf(REPLACEMENT_CLOSE);
		const { leading, trailing } = this;
		if (close >= 0 || replyEnded)
			return { text: leading + body.slice(0, close >= 0 ? close : undefined).trim() + trailing, complete: true };
		// Held back while streaming: a closing tag still arriving, and whitespace that may turn out to end the passage.
		const shown = body.slice(0, body.length - partialCloseLength(body)).trimStart();
		return { text: leading + shown.trimEnd(), complete: false };
	}
}

/** How many characters at the end of `text` could be the start of the closing tag. */
function partialCloseLength(text: string): number {
	for (let length = Math.min(REPLACEMENT_CLOSE.length - 1, text.length); length > 0; length--)
		if (REPLACEMENT_CLOSE.startsWith(text.slice(text.length - length))) return length;
	return 0;
}
