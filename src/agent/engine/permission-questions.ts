/**
 * The questions a session has put to the user and not yet had answered. A question the CLI withdraws, or that is
 * still open when the session ends, is settled as denied, so no tool waits for ever and none runs unasked.
 */
import type { AgentEvent, ToolPermissionAnswer, ToolPermissionRequest } from "../agent-session";

interface OpenQuestion {
	resolve: (answer: ToolPermissionAnswer) => void;
}

export class PermissionQuestions {
	private readonly open = new Map<string, OpenQuestion>();

	constructor(private readonly emit: (event: AgentEvent) => void) {}

	ask(request: ToolPermissionRequest, signal?: AbortSignal): Promise<ToolPermissionAnswer> {
		if (this.open.has(request.id))
			return Promise.reject(new Error(`permission request ${request.id} is already open`));
		if (signal?.aborted === true) return Promise.resolve(withdrawn);
		return new Promise<ToolPermissionAnswer>((resolve) => {
			this.open.set(request.id, { resolve });
			signal?.addEventListener("abort", () => this.answer(request.id, withdrawn), { once: true });
			this.emit({ kind: "permission-request", request });
		});
	}

	/** The user's answer; false when no such question is open (answered already, or withdrawn). */
	answer(id: string, answer: ToolPermissionAnswer): boolean {
		const question = this.open.get(id);
		if (!question) return false;
		this.open.delete(id);
		this.emit({ kind: "permission-settled", id, outcome: answer.kind === "allow" ? "allowed" : "denied" });
		question.resolve(answer);
		return true;
	}

	/** The session ended: every open question is denied. */
	withdrawAll(): void {
		for (const id of [...this.open.keys()]) this.answer(id, withdrawn);
	}
}

const withdrawn: ToolPermissionAnswer = { kind: "deny", reason: "The question was withdrawn before it was answered." };
