import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EditProposal } from "../../src/review/edit-proposal";
import { MAX_REJECT_REASON_CHARS, PendingReviews, type PendingReviewsOptions } from "../../src/review/pending-reviews";
import { VaultPaths } from "../../src/vault/vault-paths";
import { makeTempDir } from "../helpers/temp-dir";
import { waitUntil } from "../helpers/wait-until";
import { FakeReviewPort } from "./fake-review-port";

const temp = makeTempDir("pending-reviews");
const vault = join(temp.path, "vault");
mkdirSync(vault);
writeFileSync(join(vault, "note.md"), "# Note\n");
afterAll(() => temp.remove());

function setup(options: Partial<PendingReviewsOptions> = {}) {
	const port = new FakeReviewPort();
	const reviews = new PendingReviews({ paths: new VaultPaths(vault), port, ...options });
	return { port, reviews };
}

function proposal(title: string, overrides: Partial<EditProposal> = {}): EditProposal {
	return {
		note: "note.md",
		before: "# Note\n",
		after: "# Note\nmore\n",
		proposer: { surface: "vault-tools", client: "Claude's vault tools", tool: "edit_note" },
		title,
		hearsReason: true,
		signal: new AbortController().signal,
		...overrides,
	};
}

/** Proposes and waits until the review is shown. */
async function propose(s: ReturnType<typeof setup>, given: EditProposal) {
	const decision = s.reviews.propose(given);
	await waitUntil(() => s.port.views.has(given.title), "the review to be shown");
	return { decision };
}

describe("PendingReviews", () => {
	it("shows the proposal as given, reading nothing: the proposer's text is the original", async () => {
		const s = setup();
		const { decision } = await propose(s, proposal("one", { before: "what the tool read\n" }));
		expect(s.port.views.get("one")).toMatchObject({
			before: "what the tool read\n",
			after: "# Note\nmore\n",
			isNewFile: false,
			sessionId: 0,
			note: { relative: "note.md" },
			proposer: { surface: "vault-tools", client: "Claude's vault tools", tool: "edit_note" },
			hearsReason: true,
		});
		expect(s.reviews.accept("one")).toEqual({ kind: "accepted" });
		expect(await decision).toEqual({ kind: "accepted", text: "# Note\nmore\n", edited: false });
	});

	it("says when the user edited the proposal before accepting it", async () => {
		const s = setup();
		const { decision } = await propose(s, proposal("edited"));
		s.reviews.accept("edited", "# Mine\n");
		expect(await decision).toEqual({ kind: "accepted", text: "# Mine\n", edited: true });
	});

	it("shows a proposal that cannot be applied as a new note, and decides its Accept as a rejection", async () => {
		const s = setup();
		const cannotApply = "A note the vault tools cannot show is already at this path.";
		const { decision } = await propose(s, proposal("blocked", { before: undefined, cannotApply }));
		expect(s.port.views.get("blocked")).toMatchObject({ before: "", isNewFile: true, cannotApply });
		expect(s.reviews.accept("blocked")).toEqual({ kind: "refused", reason: cannotApply });
		expect(await decision).toEqual({ kind: "rejected" });
	});

	it("hands the user's reason to a proposer that hears it, as one bounded line; never to one that does not", async () => {
		const s = setup();
		const titles = ["plain", "spaced", "long", "blank"];
		const decisions = titles.map((title) => s.reviews.propose(proposal(title)));
		const deaf = s.reviews.propose(proposal("deaf", { hearsReason: false }));
		await waitUntil(() => s.port.views.size === 5, "the reviews to be shown");
		s.reviews.reject("plain", undefined, "Bo was not there");
		s.reviews.reject("spaced", undefined, "  first line\n\tsecond\u0007line  ");
		s.reviews.reject("long", undefined, "é".repeat(MAX_REJECT_REASON_CHARS + 10));
		s.reviews.reject("blank", undefined, " \n ");
		s.reviews.reject("deaf", undefined, "not like this");
		expect(await Promise.all(decisions)).toEqual([
			{ kind: "rejected", reason: "Bo was not there" },
			{ kind: "rejected", reason: "first line second line" },
			{ kind: "rejected", reason: `${"é".repeat(MAX_REJECT_REASON_CHARS - 1)}…` },
			{ kind: "rejected" },
		]);
		expect(await deaf).toEqual({ kind: "rejected" });
	});

	it("withdraws a review whose proposer gave up, and closes its view", async () => {
		const s = setup();
		const controller = new AbortController();
		const { decision } = await propose(s, proposal("gone", { signal: controller.signal }));
		controller.abort();
		expect(await decision).toEqual({ kind: "withdrawn" });
		expect(s.port.closed).toEqual(["gone"]);
		controller.abort();
		expect(await s.reviews.propose(proposal("late", { signal: controller.signal }))).toEqual({
			kind: "withdrawn",
		});
	});

	it("fails, with the reason, past the cap, when the view cannot be shown, and when review is turned off", async () => {
		const s = setup({ maxPendingPerClient: 1 });
		const { decision: first } = await propose(s, proposal("first"));
		expect(await s.reviews.propose(proposal("second"))).toEqual({
			kind: "failed",
			reason: "This client already has 1 edits waiting for review. Accept or reject some in Obsidian first.",
		});
		s.reviews.withdrawAll("turned off");
		expect(await first).toEqual({ kind: "failed", reason: "turned off" });
		s.port.failNextShow = new Error("no workspace");
		expect(await s.reviews.propose(proposal("unshown"))).toMatchObject({
			kind: "failed",
			reason: expect.stringMatching(/Could not show the review in Obsidian: no workspace/) as unknown,
		});
	});

	it("files the panel's reviews apart from the vault tools' and the IDE's: closeAllDiffTabs never closes them", async () => {
		const s = setup();
		const { decision: panel } = await propose(
			s,
			proposal("panel", { proposer: { surface: "panel", client: "Claude Code (agent panel)", tool: "Edit" } }),
		);
		expect(s.reviews.list().map((info) => info.session)).toEqual([-1]);
		expect(s.reviews.closeAll(1)).toBe(0);
		s.reviews.dispose();
		expect(await panel).toEqual({ kind: "rejected" });
	});

	it("accepts a new note while a private tag is set: a note not written yet is judged by its folder, as its proposer judged it", async () => {
		// What Obsidian's privacy answers while any private tag is set: a note it has not parsed (a new one) is private.
		const privacy = { hides: () => true, isInPrivateFolder: (relative: string) => relative.startsWith("Secret/") };
		const s = setup({ privacy });
		const { decision: fresh } = await propose(
			s,
			proposal("new public", { note: "Inbox/fresh.md", before: undefined }),
		);
		expect(s.reviews.accept("new public")).toEqual({ kind: "accepted" });
		expect(await fresh).toMatchObject({ kind: "accepted" });
		const { decision: hidden } = await propose(
			s,
			proposal("new private", { note: "Secret/fresh.md", before: undefined }),
		);
		expect(s.reviews.accept("new private")).toMatchObject({ kind: "refused" });
		expect(await hidden).toMatchObject({ kind: "failed" });
	});
});
