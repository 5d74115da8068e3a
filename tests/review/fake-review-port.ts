import type { DiffReviewPort, PendingReview } from "../../src/review/edit-proposal";
import type { VaultLocation } from "../../src/vault/vault-paths";

/** Records what the manager asks of the UI. `views` maps tab names to the review shown there. */
export class FakeReviewPort implements DiffReviewPort {
	readonly views = new Map<string, PendingReview>();
	readonly closed: string[] = [];
	readonly refreshed: string[] = [];
	/** Views the "user" opened in an earlier run, with no review behind them. */
	readonly leftovers = new Set<string>();
	failNextShow: Error | undefined;

	show(review: PendingReview): void {
		if (this.failNextShow) {
			const error = this.failNextShow;
			this.failNextShow = undefined;
			throw error;
		}
		this.views.set(review.title, review);
	}

	close(title: string): void {
		this.closed.push(title);
		this.views.delete(title);
		this.leftovers.delete(title);
	}

	openTitles(): string[] {
		return [...this.views.keys(), ...this.leftovers];
	}

	refresh(target: VaultLocation): void {
		this.refreshed.push(target.relative);
	}
}
