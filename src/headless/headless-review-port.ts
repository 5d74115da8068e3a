import { computeLineDiff } from "../shared/word-diff";
import type { DiffReviewPort, PendingReview } from "../review/edit-proposal";

/** Reviews on the headless host are decided with `diff accept` / `diff reject`; showing one announces it. */
export class HeadlessReviewPort implements DiffReviewPort {
	private readonly shown = new Set<string>();

	constructor(private readonly print: (line: string) => void) {}

	show(review: PendingReview): void {
		this.shown.add(review.title);
		if (review.cannotApply !== undefined) {
			this.print(
				`Review pending: ${JSON.stringify(review.title)} for ${review.note.relative} cannot be applied: ${review.cannotApply} Close it with "diff reject".`,
			);
			return;
		}
		const { added, removed } = computeLineDiff(review.before, review.after);
		const what = review.isNewFile ? "new note" : `+${added} -${removed} lines`;
		this.print(
			`Review pending: ${JSON.stringify(review.title)} for ${review.note.relative} (${what}). Decide with "diff accept" or "diff reject".`,
		);
	}

	close(tabName: string): void {
		this.shown.delete(tabName);
	}

	openTitles(): string[] {
		return [...this.shown];
	}

	refresh(): void {
		// Notes are files on disk here: the CLI's write is all there is to see.
	}
}
