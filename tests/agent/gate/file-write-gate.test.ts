import { applyCliEdits, cliView } from "../../../src/agent/gate/cli-edit";
import { FileWriteGate } from "../../../src/agent/gate/file-write-gate";
import type { EditProposal, ReviewDecision } from "../../../src/review/edit-proposal";
import { FakeGateVault, FakeReview, FakeWriteJournal } from "./gate-fakes";

function gate(files: Record<string, string>, decide?: (proposal: EditProposal) => ReviewDecision) {
	const vault = new FakeGateVault(files);
	const review = new FakeReview(decide);
	const journal = new FakeWriteJournal();
	return { vault, review, journal, gate: new FileWriteGate({ vault, review, journal }) };
}

const accept = (text: string) => (): ReviewDecision => ({ kind: "accepted", text, edited: true });

describe("FileWriteGate", () => {
	it("shows an Edit's full result before the file changes, and allows it unchanged when accepted as proposed", async () => {
		const { review, gate: writes } = gate({ "note.md": "# Title\nold line\n" });
		const input = { file_path: "/vault/note.md", old_string: "old line", new_string: "new line" };
		const decision = await writes.decide({ toolUseId: "t1", toolName: "Edit", input }, "s1");
		expect(review.proposals).toEqual([
			{
				note: "note.md",
				before: "# Title\nold line\n",
				after: "# Title\nnew line\n",
				proposer: { surface: "panel", client: "Claude Code (agent panel)", tool: "Edit" },
				title: "Claude Code #1: Edit note.md",
				hearsReason: true,
				signal: expect.any(AbortSignal) as unknown,
			},
		]);
		expect(decision).toEqual({ behavior: "allow", updatedInput: input });
	});

	it("tells the panel the edit waits in the review, then how the user decided it", async () => {
		const news: unknown[] = [];
		const reviewing = (toolUseId: string, decision?: unknown): void => void news.push([toolUseId, decision]);
		const input = { file_path: "/vault/note.md", old_string: "old line", new_string: "new line" };
		const accepting = gate({ "note.md": "old line\n" }, accept("mine\n")).gate;
		await accepting.decide({ toolUseId: "t1", toolName: "Edit", input }, "s1", undefined, reviewing);
		const rejecting = gate({ "note.md": "old line\n" }, () => ({ kind: "rejected", reason: "too long" })).gate;
		await rejecting.decide({ toolUseId: "t2", toolName: "Edit", input }, "s1", undefined, reviewing);
		expect(news).toEqual([
			["t1", undefined],
			["t1", { kind: "accepted", edited: true }],
			["t2", undefined],
			["t2", { kind: "rejected", reason: "too long" }],
		]);
	});

	it("reads the note once before the write: the review's original and the journal's pre-image are that one read", async () => {
		const { vault, review, journal, gate: writes } = gate({ "note.md": "# Title\nold line\n" });
		const input = { file_path: "/vault/note.md", old_string: "old line", new_string: "new line" };
		await writes.decide({ toolUseId: "t1", toolName: "Edit", input }, "s1");
		expect(vault.reads).toEqual(["note.md"]);
		expect(review.proposals[0]?.before).toBe("# Title\nold line\n");
		expect(journal.before).toEqual([Buffer.from("# Title\nold line\n", "utf8")]);
	});

	it("hands the journal the turn the write belongs to", async () => {
		const { journal, gate: writes } = gate({ "note.md": "old line\n" });
		const input = { file_path: "/vault/note.md", old_string: "old line", new_string: "new line" };
		await writes.decide({ toolUseId: "t1", toolName: "Edit", input }, "s1", undefined, undefined, "turn-7");
		await writes.decide({ toolUseId: "t2", toolName: "Edit", input }, "s1");
		expect(journal.turns).toEqual(["turn-7", undefined]);
	});

	it("applies a MultiEdit's edits in order, and reviews a Write's content as a new file", async () => {
		const { review, gate: writes } = gate({ "note.md": "a b c\n" });
		await writes.decide(
			{
				toolName: "MultiEdit",
				input: {
					file_path: "/vault/note.md",
					edits: [
						{ old_string: "a", new_string: "x" },
						{ old_string: "x b", new_string: "y" },
					],
				},
			},
			undefined,
		);
		await writes.decide(
			{ toolName: "Write", input: { file_path: "/vault/new.md", content: "fresh\n" } },
			undefined,
		);
		expect(review.proposals.map((proposal) => [proposal.before, proposal.after])).toEqual([
			["a b c\n", "y c\n"],
			[undefined, "fresh\n"],
		]);
	});

	it("an Edit the user changed in the review becomes one Edit that makes the CLI write exactly the accepted text", async () => {
		const before = "intro\nsame\nmiddle\nsame\nend\n";
		const accepted = "intro\nsame\nmiddle, as the user wrote it\nsame\nend\n";
		const { gate: writes } = gate({ "note.md": before }, accept(accepted));
		const decision = await writes.decide(
			{
				toolName: "Edit",
				input: { file_path: "/vault/note.md", old_string: "middle", new_string: "middle, as Claude wrote it" },
			},
			undefined,
		);
		if (decision.behavior !== "allow") throw new Error(decision.message);
		const { updatedInput } = decision;
		expect(updatedInput).toMatchObject({ file_path: "/vault/note.md", replace_all: false });
		expect(
			applyCliEdits(before, [
				{ old_string: String(updatedInput.old_string), new_string: String(updatedInput.new_string) },
			]),
		).toEqual({ ok: true, text: accepted });
	});

	it("a MultiEdit the user changed becomes a single edit; a Write the user changed carries their content", async () => {
		const { gate: multi } = gate({ "note.md": "one\ntwo\n" }, accept("one\nTWO!\n"));
		const multiDecision = await multi.decide(
			{
				toolName: "MultiEdit",
				input: { file_path: "/vault/note.md", edits: [{ old_string: "two", new_string: "2" }] },
			},
			undefined,
		);
		expect(multiDecision).toEqual({
			behavior: "allow",
			updatedInput: {
				file_path: "/vault/note.md",
				edits: [{ old_string: "two", new_string: "TWO!", replace_all: false }],
			},
		});
		const { gate: write } = gate({}, accept("mine\n"));
		expect(
			await write.decide(
				{ toolName: "Write", input: { file_path: "/vault/n.md", content: "claude's\n" } },
				undefined,
			),
		).toEqual({ behavior: "allow", updatedInput: { file_path: "/vault/n.md", content: "mine\n" } });
	});

	it("a rejection denies the tool with the user's reason, so Claude reads it, and nothing is recorded", async () => {
		const { gate: writes, journal } = gate({ "note.md": "text\n" }, () => ({
			kind: "rejected",
			reason: "keep my wording",
		}));
		const decision = await writes.decide(
			{
				toolUseId: "t1",
				toolName: "Edit",
				input: { file_path: "/vault/note.md", old_string: "text", new_string: "prose" },
			},
			undefined,
		);
		expect(decision).toEqual({
			behavior: "deny",
			message:
				"The user rejected this change to /vault/note.md. Their reason: the user rejected the change in the review: keep my wording. Nothing was written.",
		});
		expect(journal.events).toEqual([]);
	});

	it("a private note or a path outside the vault is refused in the words of a missing file, and never read", async () => {
		const { vault, review, gate: writes } = gate({ "Private/diary.md": "secret\n" });
		for (const file_path of ["/vault/Private/diary.md", "/elsewhere/x.md", "/vault/../x.md"]) {
			expect(
				await writes.decide(
					{ toolName: "Edit", input: { file_path, old_string: "secret", new_string: "x" } },
					undefined,
				),
			).toEqual({ behavior: "deny", message: "File does not exist." });
		}
		expect(
			await writes.decide(
				{ toolName: "Write", input: { file_path: "/vault/Private/new.md", content: "x" } },
				undefined,
			),
		).toEqual({ behavior: "deny", message: "File does not exist." });
		expect(vault.reads).toEqual([]);
		expect(review.proposals).toEqual([]);
	});

	it("an Edit the CLI would refuse is denied in the CLI's own words, unreviewed", async () => {
		const { review, gate: writes } = gate({ "note.md": "one one\n" });
		const missing = await writes.decide(
			{ toolName: "Edit", input: { file_path: "/vault/note.md", old_string: "two", new_string: "x" } },
			undefined,
		);
		const ambiguous = await writes.decide(
			{ toolName: "Edit", input: { file_path: "/vault/note.md", old_string: "one", new_string: "x" } },
			undefined,
		);
		expect(missing).toEqual({ behavior: "deny", message: "String to replace not found in file.\nString: two" });
		expect(ambiguous.behavior === "deny" ? ambiguous.message : "").toMatch(
			/^Found 2 matches of the string to replace/,
		);
		expect(review.proposals).toEqual([]);
	});

	it("a CRLF file accepted as shown is allowed unchanged", async () => {
		const { gate: writes } = gate({ "note.md": "a\r\nb\r\n" });
		const input = { file_path: "/vault/note.md", old_string: "b", new_string: "c" };
		expect(await writes.decide({ toolName: "Edit", input }, undefined)).toEqual({
			behavior: "allow",
			updatedInput: input,
		});
	});

	it("in a file that is not Markdown, shows the new text without the line-end white space the CLI removes, and refuses a user's version that needs it", async () => {
		const { review, gate: writes } = gate({ "script.py": "x = 1\n" }, accept("x = 2   \n"));
		const decision = await writes.decide(
			{ toolName: "Edit", input: { file_path: "/vault/script.py", old_string: "x = 1", new_string: "x = 3  " } },
			undefined,
		);
		expect(review.proposals[0]?.after).toBe("x = 3\n");
		expect(decision.behavior === "deny" ? decision.message : "").toMatch(
			/^The user's version keeps white space at the end of lines/,
		);
	});

	it("a user who keeps the file as it was gets a denial saying nothing was written", async () => {
		const { gate: writes } = gate({ "note.md": "keep\n" }, accept("keep\n"));
		expect(
			await writes.decide(
				{ toolName: "Edit", input: { file_path: "/vault/note.md", old_string: "keep", new_string: "change" } },
				undefined,
			),
		).toEqual({
			behavior: "deny",
			message: "The user reviewed this change and kept the file as it was. Nothing was written.",
		});
	});

	it("edits a CRLF file as the CLI does (as LF, written back as CRLF): reviewed as on disk, answered with LF text", async () => {
		const { review, gate: writes } = gate({ "note.md": "a\r\nb\r\n" }, accept("a\r\nB!\r\n"));
		const decision = await writes.decide(
			{ toolName: "Edit", input: { file_path: "/vault/note.md", old_string: "a\nb", new_string: "a\nB" } },
			undefined,
		);
		expect(review.proposals[0]).toMatchObject({ before: "a\r\nb\r\n", after: "a\r\nB\r\n" });
		if (decision.behavior !== "allow") throw new Error(decision.message);
		expect(
			applyCliEdits(cliView("a\r\nb\r\n"), [
				{
					old_string: String(decision.updatedInput.old_string),
					new_string: String(decision.updatedInput.new_string),
				},
			]),
		).toEqual({ ok: true, text: "a\nB!\n" });
	});

	it("records an accepted write's pre-image when it is allowed, and its result when the CLI reports it", async () => {
		const { journal, gate: writes } = gate({ "note.md": "v1\n" });
		await writes.decide(
			{
				toolUseId: "t1",
				toolName: "Edit",
				input: { file_path: "/vault/note.md", old_string: "v1", new_string: "v2" },
			},
			undefined,
		);
		expect(journal.events).toEqual(["approved Edit note.md"]);
		await writes.toolFinished("t1", false);
		await writes.toolFinished("t1", false);
		await writes.toolFinished("unknown", true);
		expect(journal.events).toEqual(["approved Edit note.md", "finished note.md ok"]);
	});

	it("a NotebookEdit is reviewed as the notebook's JSON; the user's own version of it is refused with a reason", async () => {
		const notebook = JSON.stringify({
			cells: [{ cell_type: "code", id: "c1", source: "print(1)", outputs: [], execution_count: 3, metadata: {} }],
			metadata: {},
			nbformat: 4,
			nbformat_minor: 5,
		});
		const { review, gate: writes } = gate({ "n.ipynb": notebook });
		const input = { notebook_path: "/vault/n.ipynb", cell_id: "c1", new_source: "print(2)" };
		expect(await writes.decide({ toolName: "NotebookEdit", input }, undefined)).toEqual({
			behavior: "allow",
			updatedInput: input,
		});
		expect(JSON.parse(review.proposals[0]?.after ?? "")).toMatchObject({
			cells: [{ id: "c1", source: "print(2)", execution_count: null }],
		});
		const { gate: edited } = gate({ "n.ipynb": notebook }, accept("{}"));
		const decision = await edited.decide({ toolName: "NotebookEdit", input }, undefined);
		expect(decision.behavior === "deny" ? decision.message : "").toMatch(
			/^The user changed the notebook in the review/,
		);
	});
});
