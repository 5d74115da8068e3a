import { join } from "node:path";
import { PendingReviews } from "../../../src/review/pending-reviews";
import { waitUntil } from "../../helpers/wait-until";
import { FakeReviewPort } from "../../review/fake-review-port";
import { makeToolVault } from "./ide-tool-fixture";

/** A vault with note.md, a review manager over a fake review view, and the arguments of an openDiff for note.md. */
export function makeReviewSetup() {
	const vault = makeToolVault({ "note.md": "# Note\n\nOld text.\n" });
	const port = new FakeReviewPort();
	const reviews = new PendingReviews({ paths: vault.paths, port });
	const note = join(vault.root, "note.md");
	const openDiffArgs = (tabName: string, proposal = "# Note\n\nNew text.\n") => ({
		old_file_path: note,
		new_file_path: note,
		new_file_contents: proposal,
		tab_name: tabName,
	});
	const shown = (tabName: string): Promise<void> =>
		waitUntil(() => port.views.has(tabName), `the review ${tabName} to be shown`);
	/** What `openDiff` is built with over this vault. */
	const openDiff = { paths: vault.paths, reviews };
	return { vault, port, reviews, openDiff, note, openDiffArgs, shown };
}
