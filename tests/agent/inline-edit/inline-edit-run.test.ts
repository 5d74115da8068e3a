import { InlineEditRun, type InlineEditUpdate } from "../../../src/agent/inline-edit/inline-edit-run";
import { FakeAgentSession } from "../../helpers/fake-agent-engine";

function started(): {
	session: FakeAgentSession;
	run: InlineEditRun;
	updates: InlineEditUpdate[];
	ask: (words?: string) => void;
} {
	const session = new FakeAgentSession({ permissionMode: "default", textOnly: { systemPrompt: "x" } });
	const run = new InlineEditRun(session, (_change, write) => write());
	const updates: InlineEditUpdate[] = [];
	return {
		session,
		run,
		updates,
		ask: (words = "shorter") =>
			run.ask(words, [{ type: "text", text: `asked: ${words}` }], "The old text.", (u) => updates.push(u)),
	};
}

describe("InlineEditRun", () => {
	it("sends the typed words with the built prompt, streams the new passage, and proposes it when the turn ends", () => {
		const { session, updates, ask, run } = started();
		ask();
		expect(session.sent).toEqual([
			{ text: "shorter", attachments: [], prompt: [{ type: "text", text: "asked: shorter" }] },
		]);
		expect(run.busy).toBe(true);
		session.reply(["Here: <replacement>", "The new", " text.", "</replacement>"]);
		expect(updates).toEqual([
			{ kind: "writing", text: "" },
			{ kind: "writing", text: "The new" },
			{ kind: "writing", text: "The new text." },
			{ kind: "proposed", text: "The new text." },
		]);
		expect(run.busy).toBe(false);
	});

	it("a reply without the passage's tags is Claude's answer in words, not a proposal", () => {
		const { session, updates, ask } = started();
		ask();
		session.reply(["Which part ", "should be shorter?"]);
		expect(updates).toEqual([
			{ kind: "writing", text: "" },
			{ kind: "answered", reply: "Which part should be shorter?" },
		]);
	});

	it("a follow-up goes to the same session; stopping reports it stopped; an error and a crash are failures", async () => {
		const { session, updates, ask, run } = started();
		ask();
		session.reply(["<replacement>A</replacement>"]);
		ask("keep my second sentence");
		expect(session.sent.map((message) => message.text)).toEqual(["shorter", "keep my second sentence"]);
		await run.stop();
		expect(updates.at(-1)).toEqual({ kind: "stopped" });
		ask();
		session.emit({ kind: "turn-end", outcome: "error", usage: {}, error: "Rate limited." });
		expect(updates.at(-1)).toEqual({ kind: "failed", message: "Rate limited." });
		ask();
		session.emit({ kind: "closed" });
		expect(updates.at(-1)).toEqual({ kind: "failed", message: "Claude Code stopped before it answered." });
		expect(run.ended).toBe(true);
		ask();
		expect(updates.at(-1)).toMatchObject({ kind: "failed" });
	});

	it("refuses a tool question if one ever came; close ends the session and nothing more is heard", async () => {
		const { session, updates, ask, run } = started();
		ask();
		session.emit({
			kind: "permission-request",
			request: { id: "q1", toolName: "Write", input: {}, summary: "Write: x" },
		});
		expect(session.answers).toEqual([
			{ id: "q1", answer: { kind: "deny", reason: "An inline edit uses no tools." } },
		]);
		await run.close();
		expect(session.closed).toBe(true);
		expect(updates).toEqual([]);
	});

	it("records an accepted change through the journal's port, around the write that makes it", async () => {
		const session = new FakeAgentSession({ permissionMode: "default" });
		const order: string[] = [];
		const run = new InlineEditRun(session, async (change, write) => {
			order.push(`before ${change.path}: ${change.summary}`);
			await write();
			order.push("after");
		});
		await run.record({ path: "A.md", text: "new", summary: "asked" }, () => {
			order.push("write");
			return Promise.resolve();
		});
		expect(order).toEqual(["before A.md: asked", "write", "after"]);
	});
});
