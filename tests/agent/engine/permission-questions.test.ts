import type { AgentEvent, ToolPermissionRequest } from "../../../src/agent/agent-session";
import { PermissionQuestions } from "../../../src/agent/engine/permission-questions";

const request = (id: string): ToolPermissionRequest => ({
	id,
	toolName: "Bash",
	input: { command: "ls" },
	summary: "Bash: ls",
});

function questions(): { questions: PermissionQuestions; events: AgentEvent[] } {
	const events: AgentEvent[] = [];
	return { questions: new PermissionQuestions((event) => events.push(event)), events };
}

describe("PermissionQuestions", () => {
	it("asks through an event and resolves with the user's answer, once", async () => {
		const { questions: open, events } = questions();
		const answer = open.ask(request("p1"));
		expect(events).toEqual([{ kind: "permission-request", request: request("p1") }]);
		expect(open.answer("p1", { kind: "allow", scope: "session" })).toBe(true);
		expect(open.answer("p1", { kind: "deny" })).toBe(false);
		await expect(answer).resolves.toEqual({ kind: "allow", scope: "session" });
		expect(events[1]).toEqual({ kind: "permission-settled", id: "p1", outcome: "allowed" });
	});

	it("denies a question the CLI withdraws", async () => {
		const { questions: open, events } = questions();
		const controller = new AbortController();
		const answer = open.ask(request("p2"), controller.signal);
		controller.abort();
		await expect(answer).resolves.toMatchObject({ kind: "deny" });
		expect(events[1]).toEqual({ kind: "permission-settled", id: "p2", outcome: "denied" });
	});

	it("denies every open question when the session ends", async () => {
		const { questions: open } = questions();
		const answers = Promise.all([open.ask(request("a")), open.ask(request("b"))]);
		open.withdrawAll();
		expect((await answers).map((answer) => answer.kind)).toEqual(["deny", "deny"]);
	});

	it("refuses a second question with an id that is still open", async () => {
		const { questions: open } = questions();
		void open.ask(request("same"));
		await expect(open.ask(request("same"))).rejects.toThrow("permission request same is already open");
	});
});
