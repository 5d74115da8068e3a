import { Modal, type App } from "obsidian";
import type { NotesBeforeTurns } from "../../agent/agent-session";

/** What the rewind's question says, line by line: what happens to the notes, then to the conversation. */
export function rewindWords(notes: NotesBeforeTurns | undefined): string[] {
	const lines: string[] = [];
	if (notes === undefined) {
		lines.push(
			"Notes are not restored: the activity journal is off, so the panel does not know what Claude changed.",
		);
	} else {
		const { restore, review, left } = notes;
		if (restore.length === 0 && review.length === 0 && left.length === 0)
			lines.push("Claude changed no notes after this message.");
		if (restore.length > 0)
			lines.push(
				`Restores ${count(restore.length, "note")} to how ${restore.length === 1 ? "it was" : "they were"} before this message: ${names(restore)}.`,
			);
		if (review.length > 0)
			lines.push(
				`${count(review.length, "note")} changed since Claude's edit (${names(review)}): ${review.length === 1 ? "it opens" : "they open"} in the review, so you choose what ${review.length === 1 ? "it holds" : "each holds"}.`,
			);
		for (const note of left) lines.push(`${noteName(note.path)} stays as it is: ${note.reason}.`);
	}
	lines.push(
		"The conversation goes back to before this message, and its text returns to the message box. To keep the later turns as well, use Fork from here first.",
	);
	return lines;
}

/** A rewound message of a past session: its images were not kept, so the box has its text only. */
export function imagesNotKeptWords(images: readonly string[]): string {
	const quoted = images.map((name) => `“${name}”`).join(", ");
	return `${images.length === 1 ? "The image" : "The images"} sent with it (${quoted}) ${images.length === 1 ? "is" : "are"} not back in the message box: the panel keeps images only while their session is open. Add ${images.length === 1 ? "it" : "them"} again to send ${images.length === 1 ? "it" : "them"}.`;
}

/** What the rewound conversation says of its notes: restored, open in the review, left, or why none were. */
export function rewoundWords(done: NotesBeforeTurns | undefined, failure?: string): string {
	if (failure !== undefined) return `Rewound to before your message, but the notes could not be restored: ${failure}`;
	if (done === undefined)
		return "Rewound to before your message. Notes were not restored: the activity journal is off.";
	const parts = ["Rewound to before your message."];
	if (done.restore.length > 0)
		parts.push(
			`Restored ${names(done.restore)} to how ${done.restore.length === 1 ? "it was" : "they were"} then.`,
		);
	if (done.review.length > 0) parts.push(`Open in the review, for you to choose: ${names(done.review)}.`);
	for (const note of done.left) parts.push(`${noteName(note.path)} stays as it is: ${note.reason}.`);
	return parts.join(" ");
}

/** Asks before a rewind, saying what will be restored; `onRewind` runs only on the user's yes. */
export class RewindConfirm extends Modal {
	constructor(
		app: App,
		private readonly notes: NotesBeforeTurns | undefined,
		private readonly onRewind: () => void,
	) {
		super(app);
	}

	override onOpen(): void {
		const { contentEl } = this;
		this.setTitle("Rewind to before this message?");
		contentEl.addClass("ccb-rewind-confirm");
		for (const line of rewindWords(this.notes)) contentEl.createEl("p", { text: line });
		const buttons = contentEl.createDiv({ cls: "ccb-rewind-confirm-buttons" });
		const rewind = buttons.createEl("button", { cls: ["mod-warning", "ccb-rewind-confirm-yes"], text: "Rewind" });
		const cancel = buttons.createEl("button", { cls: "ccb-rewind-confirm-cancel", text: "Cancel" });
		rewind.addEventListener("click", () => {
			this.close();
			this.onRewind();
		});
		cancel.addEventListener("click", () => this.close());
		rewind.focus();
	}

	override onClose(): void {
		this.contentEl.empty();
	}
}

function count(n: number, noun: string): string {
	return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Notes by the names the file explorer shows, at most a few. */
function names(paths: readonly string[]): string {
	const shown = paths.slice(0, 3).map(noteName);
	return paths.length > 3 ? `${shown.join(", ")} and ${paths.length - 3} more` : shown.join(", ");
}

function noteName(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	return name.endsWith(".md") ? name.slice(0, -3) : name;
}
