import { join } from "node:path";
import {
	PANEL_REJECTED,
	PANEL_REVIEW_SESSION,
	PANEL_WITHDRAWN,
	PanelFileWriteReview,
} from "../../src/assembly/panel-file-write-review";
import { VAULT_TOOLS_REVIEW_SESSION } from "../../src/assembly/diff-review-write-review";
import type { FileWriteProposal } from "../../src/agent/gate/file-write-review";
import { DiffReviewManager } from "../../src/ide/diff-review/diff-review-manager";
import { VaultPaths } from "../../src/vault/vault-paths";
import { waitUntil } from "../helpers/wait-until";
import { FakeReviewPort } from "../ide/diff-review/fake-review-port";
import { makeToolVault } from "../ide/tools/ide-tool-fixture";

const vault = makeToolVault({ "note.md": "old\n" });
afterAll(() => vault.remove());

function setup() {
	const port = new FakeReviewPort();
	const reviews = new DiffReviewManager({ paths: new VaultPaths(vault.root), port });
	const review = new PanelFileWriteReview(reviews, (path) => join(vault.root, path));
	const proposal: FileWriteProposal = {
		path: "note.md",
		before: "old\n",
		proposed: "new\n",
		proposer: { tool: "Edit", sessionId: "s" },
		isNewFile: false,
	};
	return { port, reviews, review, proposal };
}

describe("PanelFileWriteReview", () => {
	it("shows each write in the bridge's review view, filed apart from IDE clients and the vault tools, and answers the user's text", async () => {
		const { port, reviews, review, proposal } = setup();
		const first = review.review(proposal);
		const second = review.review({ ...proposal, proposer: { tool: "Write" } });
		await waitUntil(() => port.views.size === 2, "both reviews to be shown");
		expect([...port.views.keys()].sort()).toEqual([
			"Claude Code #1: Edit note.md",
			"Claude Code #2: Write note.md",
		]);
		expect(port.views.get("Claude Code #1: Edit note.md")).toMatchObject({
			originalText: "old\n",
			proposedText: "new\n",
			sessionId: PANEL_REVIEW_SESSION,
			proposer: { client: "Claude Code (agent panel)", tool: "Edit" },
		});
		expect(reviews.closeAll(1) + reviews.closeAll(VAULT_TOOLS_REVIEW_SESSION)).toBe(0);
		reviews.accept("Claude Code #1: Edit note.md", "mine\n");
		reviews.reject("Claude Code #2: Write note.md");
		expect(await first).toEqual({ kind: "accepted", finalText: "mine\n" });
		expect(await second).toEqual({ kind: "rejected", reason: PANEL_REJECTED });
	});

	it("tells Claude the user's reason for a rejection, after the usual phrase", async () => {
		const { port, reviews, review, proposal } = setup();
		const outcome = review.review(proposal);
		await waitUntil(() => port.views.size === 1, "the review to be shown");
		expect(port.views.get("Claude Code #1: Edit note.md")?.takesRejectReason).toBe(true);
		reviews.reject("Claude Code #1: Edit note.md", undefined, "use the list style\nof the other notes");
		expect(await outcome).toEqual({
			kind: "rejected",
			reason: `${PANEL_REJECTED}: use the list style of the other notes`,
		});
	});

	it("a review whose question the CLI withdraws is closed and answered as withdrawn", async () => {
		const { port, review, proposal } = setup();
		const controller = new AbortController();
		const outcome = review.review({ ...proposal, signal: controller.signal });
		await waitUntil(() => port.views.size === 1, "the review to be shown");
		controller.abort();
		expect(await outcome).toEqual({ kind: "rejected", reason: PANEL_WITHDRAWN });
		expect(port.views.size).toBe(0);
	});

	it("a review that cannot be shown is a failure that says why, never the user's rejection", async () => {
		const { port, review, proposal } = setup();
		port.failNextShow = new Error("no window");
		const outcome = await review.review(proposal);
		expect(outcome.kind).toBe("failed");
		expect(outcome.kind === "failed" ? outcome.reason : "").toMatch(
			/^Could not show the review in Obsidian: no window/,
		);
	});
});
