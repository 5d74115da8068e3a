import { join } from "node:path";
import { DiffReviewWriteReview, VAULT_TOOLS_REVIEW_SESSION } from "../../src/assembly/diff-review-write-review";
import { DiffReviewManager } from "../../src/ide/diff-review/diff-review-manager";
import type { ProposedWrite } from "../../src/vault-tools/kit/ports";
import { VaultPaths } from "../../src/vault/vault-paths";
import { waitUntil } from "../helpers/wait-until";
import { FakeReviewPort } from "../ide/diff-review/fake-review-port";
import { makeToolVault } from "../ide/tools/ide-tool-fixture";

const vault = makeToolVault({ "note.md": "old\n" });
afterAll(() => vault.remove());

function setup() {
	const port = new FakeReviewPort();
	const reviews = new DiffReviewManager({ paths: new VaultPaths(vault.root), port });
	const review = new DiffReviewWriteReview(reviews, (path) => join(vault.root, path));
	const write = (signal = new AbortController().signal): ProposedWrite => ({
		path: "note.md",
		oldText: "old\n",
		newText: "new\n",
		isNewNote: false,
		tool: "edit_note",
		signal,
	});
	return { port, reviews, review, write };
}

describe("DiffReviewWriteReview", () => {
	it("shows each write in its own review, filed under the vault tools' session, and answers the accepted text", async () => {
		const { port, reviews, review, write } = setup();
		const first = review.propose(write());
		const second = review.propose({ ...write(), tool: "set_properties" });
		await waitUntil(() => port.views.size === 2, "both reviews to be shown");
		expect([...port.views.keys()].sort()).toEqual([
			"Vault tools #1: edit_note note.md",
			"Vault tools #2: set_properties note.md",
		]);
		expect(port.views.get("Vault tools #2: set_properties note.md")?.proposer).toEqual({
			client: "Claude's vault tools",
			tool: "set_properties",
		});
		expect(port.views.get("Vault tools #1: edit_note note.md")).toMatchObject({
			proposedText: "new\n",
			target: { relative: "note.md" },
			proposer: { client: "Claude's vault tools", tool: "edit_note" },
		});
		expect(reviews.closeAll(1)).toBe(0);
		reviews.accept("Vault tools #1: edit_note note.md", "edited\n");
		reviews.reject("Vault tools #2: set_properties note.md");
		expect(await first).toEqual({ kind: "accepted", finalText: "edited\n" });
		expect(await second).toEqual({ kind: "rejected", reason: "the user rejected the change in the review" });
		expect(VAULT_TOOLS_REVIEW_SESSION).toBe(0);
	});

	it("passes the user's reason for a rejection on to Claude after the usual phrase", async () => {
		const { port, reviews, review, write } = setup();
		const outcome = review.propose(write());
		await waitUntil(() => port.views.size === 1, "the review to be shown");
		expect(port.views.get("Vault tools #1: edit_note note.md")?.takesRejectReason).toBe(true);
		reviews.reject("Vault tools #1: edit_note note.md", undefined, " keep the heading\n");
		expect(await outcome).toEqual({
			kind: "rejected",
			reason: "the user rejected the change in the review: keep the heading",
		});
	});

	it("withdraws the review when the call is cancelled, and says so", async () => {
		const { port, review, write } = setup();
		const controller = new AbortController();
		const outcome = review.propose(write(controller.signal));
		await waitUntil(() => port.views.size === 1, "the review to be shown");
		controller.abort();
		expect(await outcome).toEqual({
			kind: "rejected",
			reason: "the call was cancelled (or its client went away) before the user decided; the review was withdrawn",
		});
		expect(port.views.size).toBe(0);
	});

	it("answers a review that could not be shown as failed (a tool error for the model), with the reason", async () => {
		const { port, review, write } = setup();
		port.failNextShow = new Error("no window");
		const outcome = await review.propose(write());
		expect(outcome.kind).toBe("failed");
		expect(outcome.kind === "failed" ? outcome.reason : "").toMatch(/no window/);
	});
});
