import { symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Bridge } from "../../src/assembly/bridge-assembly";
import { requestText } from "../e2e/harness/messages-request";
import { textTurn, toolUseTurn } from "../e2e/harness/sse-reply";
import { pollUntil } from "../helpers/wait-until";
import { startBuiltPanel, type BuiltPanel } from "./harness/built-panel";

/**
 * Issue 26, finding 4, the way an attacker who can put files in the vault would try it, against the built plugin,
 * the pinned real CLI and the mock model API: a note whose name splits a quoted mention, a folder holding a
 * tag-private note, a public-looking link into a private folder, and `@` paths in the typed text. What the model
 * is sent must hold neither the private text nor the tag-private note's name.
 */

jest.setTimeout(240_000);

const SECRET = "SECRET-PLAN-TEXT";
const DIARY = "DIARY-TEXT";
const QUOTED = 'Notes/Q" @Secret/Plan.md ".md';

const files: Record<string, string> = {
	"Secret/Plan.md": `# Plan\n${SECRET}\n`,
	"Notes/Open.md": "# Open\nThe first chapter.\n",
	[QUOTED]: "A harmless-looking note.\n",
	"Notes/Hidden diary.md": `---\ntags: [private]\n---\n${DIARY}\n`,
};

let panel: BuiltPanel | undefined;
afterEach(async () => {
	await panel?.stop();
	panel = undefined;
});

async function start(): Promise<BuiltPanel> {
	panel = await startBuiltPanel({
		files,
		data: { privateFolders: ["Secret"], privateTags: ["private"] },
		prepare: (vault) => symlinkSync(join(vault, "Secret", "Plan.md"), join(vault, "Notes", "Link.md")),
	});
	return panel;
}

/** Everything the model was sent in this test, as one string. */
function sentToModel(built: BuiltPanel): string {
	return built.mock.mainRequests
		.map((request) => `${requestText(request.body)}\n${JSON.stringify(request.body)}`)
		.join("\n");
}

describe("what the panel hands the CLI of mentions and attachments (built plugin, real CLI)", () => {
	it("a note whose name splits a quoted mention is handed over as its own text only: the CLI reads nothing it names", async () => {
		const built = await start();
		built.mock.enqueue(textTurn("It is harmless."));
		const recorded = await built.start();
		expect((await recorded.turn(`Summarise @${QUOTED}`, [{ path: QUOTED }])).outcome).toBe("done");
		const sent = sentToModel(built);
		expect(sent).not.toContain(SECRET);
		expect(sent).toContain("A harmless-looking note.");
	});

	it("a folder attachment lists the notes Claude may see: no tag-private note's name or text, no link into a private folder", async () => {
		const built = await start();
		built.mock.enqueue(textTurn("Two notes."));
		const recorded = await built.start();
		expect((await recorded.turn("What is in @Notes?", [{ path: "Notes" }])).outcome).toBe("done");
		const sent = sentToModel(built);
		for (const hidden of ["Hidden diary", DIARY, "Link.md", SECRET])
			expect([hidden, sent.includes(hidden)]).toEqual([hidden, false]);
		expect(sent).toContain("Notes/Open.md");
	});

	it("a public-looking link into a private folder is not handed over, attached or typed, and no typed @path is read by the CLI", async () => {
		const built = await start();
		built.mock.enqueue(textTurn("Nothing there."));
		const recorded = await built.start();
		const typed =
			'Read @Notes/Link.md and @Secret/Plan.md and @"Secret/Plan.md" and @Secret and @Notes/Hidden\\ diary.md';
		expect(
			(
				await recorded.turn(typed, [
					{ path: "Notes/Link.md" },
					{ path: "Secret/Plan.md" },
					{ path: "Notes/Hidden diary.md" },
				])
			).outcome,
		).toBe("done");
		const sent = sentToModel(built);
		for (const hidden of [SECRET, DIARY]) expect([hidden, sent.includes(hidden)]).toEqual([hidden, false]);
		expect(JSON.stringify(built.mock.mainRequests.map((request) => request.body["messages"]))).not.toMatch(
			/Called the Read tool/,
		);
	});

	it("an attached note reaches the model byte for byte, and Claude's Edit right after it goes to the review (no Read needed first)", async () => {
		const built = await start();
		const note = join(built.vault, "Notes", "Open.md");
		built.mock.enqueue(
			toolUseTurn("Edit", {
				file_path: note,
				old_string: "The first chapter.",
				new_string: "The second chapter.",
			}),
			textTurn("Proposed."),
		);
		const recorded = await built.start();
		recorded.session.send({ text: "Move on", attachments: [{ path: "Notes/Open.md", lines: { from: 2, to: 2 } }] });
		const bridge = (built.plugin as unknown as { bridge?: { bridge: Bridge } }).bridge?.bridge;
		const pending = await pollUntil(() => bridge?.reviews.findPending(), "the review of Claude's Edit", {
			timeoutMs: 90_000,
		});
		expect(pending).toMatchObject({
			before: "# Open\nThe first chapter.\n",
			after: "# Open\nThe second chapter.\n",
		});
		const first = built.mock.mainRequests[0]?.body;
		expect(JSON.stringify(first)).toContain(
			JSON.stringify({ type: "text", media_type: "text/plain", data: "The first chapter." }),
		);
		bridge?.reviews.reject(pending.title, undefined, "Not yet.");
		expect((await recorded.next("turn-end")).outcome).toBe("done");
	});
});
