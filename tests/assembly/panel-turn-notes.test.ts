import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AskingSession } from "../../src/agent/agent-session";
import { MemoryPermissionRules } from "../../src/agent/gate/permission-rules";
import { assembleAgent } from "../../src/assembly/agent-assembly";
import { panelTurnNotes, reviewedChoice } from "../../src/assembly/panel-turn-notes";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { pollUntil } from "../helpers/wait-until";
import { FakeReview } from "../agent/gate/gate-fakes";

/** Bytes a text editor may keep: a byte order mark, CRLF line ends, a last line without its end. */
const ORIGINAL = Buffer.from("\uFEFF# Plan\r\nWrite the first chapter — slowly", "utf8");

let fixture: AssembledBridge | undefined;
const bridge = (): AssembledBridge => {
	if (!fixture) throw new Error("no bridge started");
	return fixture;
};
beforeEach(async () => {
	fixture = await startAssembledBridge({
		journalStore: new MemoryJournalStore(),
		populate: (vault) => writeFileSync(join(vault, "Plan.md"), ORIGINAL),
	});
}, FIXTURE_TIMEOUT_MS);
afterEach(() => fixture?.stop());

/** Claude Code's Write of `text` into Plan.md during `turn`, through the panel's gate, accepted in the review. */
async function claudeWrites(turn: string, text: string): Promise<void> {
	const { gate } = assembleAgent(bridge().bridge, { rules: new MemoryPermissionRules() });
	const file = join(bridge().vaultPath, "Plan.md");
	const asking: AskingSession = {
		sessionId: "cli-1",
		turn,
		ask: () => Promise.reject(new Error("nothing should be asked")),
	};
	const decided = gate.decide(
		{ toolUseId: `w-${turn}`, toolName: "Write", input: { file_path: file, content: text } },
		asking,
	);
	const pending = await pollUntil(() => bridge().bridge.reviews.findPending(), "the edit's review");
	bridge().bridge.reviews.accept(pending.title);
	expect(await decided).toMatchObject({ behavior: "allow" });
	writeFileSync(file, text);
	await gate.toolFinished(`w-${turn}`, false);
}

describe("panelTurnNotes", () => {
	it("puts a note back byte for byte as it was before the turns, from the journal", async () => {
		await claudeWrites("t1", "# Plan\nThe second chapter.\n");
		const notes = panelTurnNotes(bridge().bridge);
		expect(await notes?.plan(["t1"])).toEqual({ restore: ["Plan.md"], review: [], left: [] });
		expect(await notes?.restore(["t1"])).toEqual({ restore: ["Plan.md"], review: [], left: [] });
		expect(readFileSync(join(bridge().vaultPath, "Plan.md")).equals(ORIGINAL)).toBe(true);
	});

	it("opens the review for a note the user changed since Claude's edit; accepting the earlier text writes its exact bytes", async () => {
		await claudeWrites("t1", "# Plan\nThe second chapter.\n");
		const file = join(bridge().vaultPath, "Plan.md");
		writeFileSync(file, "# Plan\nThe second chapter, and my note.\n");
		const notes = panelTurnNotes(bridge().bridge);
		expect(await notes?.restore(["t1"])).toEqual({ restore: [], review: ["Plan.md"], left: [] });
		const pending = await pollUntil(() => bridge().bridge.reviews.findPending(), "the rewind's review");
		expect(pending).toMatchObject({
			title: "Rewind: Plan.md",
			before: "# Plan\nThe second chapter, and my note.\n",
			// Shown as text (the byte order mark is not shown); accepted as shown, the exact bytes go back.
			after: "# Plan\r\nWrite the first chapter — slowly",
			proposer: { surface: "undo", tool: "Rewind" },
		});
		expect(readFileSync(file, "utf8")).toBe("# Plan\nThe second chapter, and my note.\n");
		bridge().bridge.reviews.accept(pending.title);
		await pollUntil(() => readFileSync(file).equals(ORIGINAL) || undefined, "the earlier bytes written");
	});

	it("is not offered without the journal's undo", () => {
		expect(panelTurnNotes({ reviews: bridge().bridge.reviews })).toBeUndefined();
	});
});

describe("reviewedChoice", () => {
	const note = { path: "n.md", current: Buffer.from("now"), earlier: Buffer.from("then") };
	it("gives the user's edited text, or nothing when they keep the note", async () => {
		const edited = reviewedChoice(
			new FakeReview(() => ({ kind: "accepted", text: "then, and more", edited: true })),
		);
		expect(Buffer.from((await edited(note)) ?? []).toString()).toBe("then, and more");
		const kept = reviewedChoice(new FakeReview(() => ({ kind: "rejected" })));
		expect(await kept(note)).toBeUndefined();
	});
});
