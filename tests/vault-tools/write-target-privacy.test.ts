import { symlinkSync } from "node:fs";
import { join } from "node:path";
import type { EditProposal, EditReview, ReviewDecision } from "../../src/review/edit-proposal";
import { ADAPTERS, type ServedVault } from "./private-served-vault";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 14: a private or hidden note is a missing note to every vault tool, and where the answers cannot be equal
 * (creating or moving onto a path a private note occupies must fail) the model learns no more than the user's
 * Reject, or a note created there meanwhile, would tell it. Before: such a path answered "not available" while a
 * free one opened a review; through a symbolic link a private note answered `No note "…"` where a missing note
 * added "Use search…"; and in Obsidian, with a private tag set, every new path answered "not available" (a note
 * Obsidian does not know yet counts as private).
 */
const FILES: Record<string, string> = {
	"Notes/Alpha.md": "# Alpha\n",
	"Notes/Diary.md": "#private\nDear diary.\n",
	"Secret/Plan.md": "# Plan\n",
};
const RULES = { folders: ["Secret"], tags: ["private"] };

/** A review that records what it was shown and answers as the user would. */
class ScriptedReview implements EditReview {
	readonly shown: EditProposal[] = [];
	constructor(public decision: "accepted" | "rejected") {}
	propose(write: EditProposal): Promise<ReviewDecision> {
		this.shown.push(write);
		return Promise.resolve(
			this.decision === "accepted"
				? { kind: "accepted", text: write.after, edited: false }
				: { kind: "rejected" },
		);
	}
}

const same = (text: string, path: string): string => text.split(path).join("<path>");

describe.each(ADAPTERS)("write targets a private note occupies, over %s", (_name, serve) => {
	let vault: ServedVault;
	let review: ScriptedReview;
	beforeEach(async () => {
		review = new ScriptedReview("rejected");
		vault = await serve(FILES, RULES, { review: () => review });
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => vault?.dispose());

	it("create_note on a free path opens a review (a private tag rule does not make every new path private)", async () => {
		review.decision = "accepted";
		const answer = await vault.call("create_note", { path: "Notes/New.md", content: "# New\n" });
		expect(answer.text).toMatch(/^Created Notes\/New\.md/);
		expect(review.shown.map((write) => [write.note, write.cannotApply])).toEqual([["Notes/New.md", undefined]]);
	});

	it("create_note onto a private note: the user sees the conflict, Claude gets the answer a Reject gives, nothing is written", async () => {
		const free = await vault.call("create_note", { path: "Notes/Free.md", content: "# Mine\n" });
		review.decision = "accepted";
		const taken = await vault.call("create_note", { path: "Notes/Diary.md", content: "# Mine\n" });
		expect(same(taken.text, "Notes/Diary.md")).toBe(same(free.text, "Notes/Free.md"));
		expect(taken.isError).toBe(free.isError);
		expect(free.text).toMatch(/^Not created: the user rejected the change in the review\. Nothing was written\.$/);
		expect(review.shown.map((write) => write.note)).toEqual(["Notes/Free.md", "Notes/Diary.md"]);
		expect(review.shown[1]?.cannotApply).toMatch(
			/^A note the vault tools cannot show \(private or hidden\) is already at this path/,
		);
		expect(vault.text("Notes/Diary.md")).toBe(FILES["Notes/Diary.md"]);
	});

	it("create_note onto a private note with review off answers as a note created there meanwhile", async () => {
		vault.dispose();
		vault = await serve(FILES, RULES);
		const answer = await vault.call("create_note", { path: "Notes/Diary.md", content: "# Mine\n" });
		expect(answer).toMatchObject({
			isError: true,
			text: "create_note: Notes/Diary.md was created by someone else meanwhile; nothing was written.",
		});
		expect(vault.text("Notes/Diary.md")).toBe(FILES["Notes/Diary.md"]);
	});

	it("move_note onto a private note answers as a note created there meanwhile, and moves nothing", async () => {
		const answer = await vault.call("move_note", { path: "Notes/Alpha.md", to: "Notes/Diary.md" });
		expect(answer).toMatchObject({
			isError: true,
			text: "move_note: Notes/Diary.md was created by someone else meanwhile; nothing was moved.",
		});
		expect(vault.text("Notes/Alpha.md")).toBe(FILES["Notes/Alpha.md"]);
		expect(vault.text("Notes/Diary.md")).toBe(FILES["Notes/Diary.md"]);
	});

	it("a path in a private folder is refused alike whether a note is there or not", async () => {
		const existing = await vault.call("create_note", { path: "Secret/Plan.md", content: "x" });
		const missing = await vault.call("create_note", { path: "Secret/Other.md", content: "x" });
		expect(same(existing.text, "Secret/Plan.md")).toBe(same(missing.text, "Secret/Other.md"));
		expect(review.shown).toEqual([]);
	});
});

describe.each(ADAPTERS.slice(0, 1))("a private note through a symbolic link, over %s", (_name, serve) => {
	let vault: ServedVault;
	beforeEach(async () => {
		vault = await serve(FILES, RULES);
		symlinkSync(join(vault.root, "Secret"), join(vault.root, "pub"));
		symlinkSync(join(vault.root, "Notes", "Diary.md"), join(vault.root, "Notes", "Alias.md"));
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => vault?.dispose());

	it.each(["pub/Plan.md", "pub/Plan", "Notes/Alias.md", "pub/Missing.md"])(
		"read_note %s answers in the words of a missing note",
		async (path) => {
			const missing = await vault.call("read_note", { path: "Nowhere/Gone.md" });
			const answer = await vault.call("read_note", { path });
			expect(same(answer.text, path)).toBe(same(missing.text, "Nowhere/Gone.md"));
		},
	);
});
