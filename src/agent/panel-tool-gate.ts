import type { AskingSession, ToolGate, ToolPermissionAnswer, ToolUseDecision, ToolUseRequest } from "./agent-session";
import { FILE_MISSING } from "./cli-edit";
import { FILE_WRITE_TOOLS, FileWriteGate } from "./file-write-gate";
import type { FileWriteReview } from "./file-write-review";
import type { GateVault, WriteJournal } from "./gate-ports";
import { ruleFor, ruleMatches, type PermissionRule, type PermissionRules } from "./permission-rules";
import { toolUseSummary } from "./tool-use-summary";

/** Read-only built-ins and the path argument each reads (none: the working folder, the vault). */
const READ_TOOLS: ReadonlyMap<string, string> = new Map([
	["Read", "file_path"],
	["NotebookRead", "notebook_path"],
	["Glob", "path"],
	["Grep", "path"],
	["LS", "path"],
]);

/** Built-ins that touch no file and that the CLI's `default` mode runs without asking. */
const NEVER_ASKED: ReadonlySet<string> = new Set(["TodoWrite", "TodoRead", "Task", "Agent", "BashOutput", "KillShell", "KillBash"]);

/** Questions whose answer holds for this one use only: leaving plan mode is approved plan by plan. */
const ASKED_EACH_TIME: ReadonlySet<string> = new Set(["ExitPlanMode"]);

export interface PanelToolGateOptions {
	vault: GateVault;
	review: FileWriteReview;
	rules: PermissionRules;
	/** The in-process MCP servers' names: their tools (`mcp__<name>__*`) run, they review their own writes. */
	inProcessServers: () => readonly string[];
	journal?: WriteJournal;
}

/**
 * The agent panel's permission routing. File writes of Claude Code's own tools go to the review view; the vault
 * tools served in process run; read-only built-ins run as in the CLI's `default` mode inside the vault (a private
 * note or folder answers as a missing file, a place outside the vault is asked); anything else runs when an
 * "always" rule or this session's allowance matches, and is asked in the panel otherwise.
 */
export class PanelToolGate implements ToolGate {
	private readonly writes: FileWriteGate;
	private readonly sessionRules = new WeakMap<AskingSession, PermissionRule[]>();
	private nextRequest = 1;

	constructor(private readonly options: PanelToolGateOptions) {
		this.writes = new FileWriteGate({ vault: options.vault, review: options.review, ...(options.journal ? { journal: options.journal } : {}) });
	}

	/** `signal`: aborted when the CLI withdraws the question (`control_cancel_request`); a pending review is withdrawn. */
	async decide(request: ToolUseRequest, session: AskingSession, signal?: AbortSignal): Promise<ToolUseDecision> {
		const { toolName } = request;
		if (this.options.inProcessServers().some((server) => toolName.startsWith(`mcp__${server}__`))) return allow(request);
		if (FILE_WRITE_TOOLS.includes(toolName)) return this.writes.decide(request, session.sessionId, signal);
		if (NEVER_ASKED.has(toolName)) return allow(request);
		const readPath = READ_TOOLS.get(toolName);
		if (readPath !== undefined) {
			const given = request.input[readPath];
			if (typeof given !== "string" || given === "") return allow(request);
			const located = await this.options.vault.locate(given);
			if (located.kind === "visible") return allow(request);
			if (located.kind === "private") return { behavior: "deny", message: FILE_MISSING };
		}
		return this.ask(request, session);
	}

	/**
	 * The CLI reported a tool's result (the engine calls this for every `tool_result`): a reviewed write it made is
	 * recorded in the activity journal as it is on disk now.
	 */
	toolFinished(toolUseId: string, isError: boolean): Promise<void> {
		return this.writes.toolFinished(toolUseId, isError);
	}

	private async ask(request: ToolUseRequest, session: AskingSession): Promise<ToolUseDecision> {
		const remembered = !ASKED_EACH_TIME.has(request.toolName);
		if (remembered) {
			const allowed = [...(await this.options.rules.list()), ...(this.sessionRules.get(session) ?? [])];
			if (allowed.some((rule) => ruleMatches(rule, request))) return allow(request);
		}
		const answer: ToolPermissionAnswer = await session.ask({
			id: `permission-${this.nextRequest++}`,
			toolName: request.toolName,
			input: request.input,
			summary: toolUseSummary(request),
		});
		if (answer.kind === "deny") {
			return { behavior: "deny", message: answer.reason !== undefined && answer.reason.trim() !== "" ? `The user denied this use of ${request.toolName}: ${answer.reason.trim()}` : `The user denied this use of ${request.toolName}.` };
		}
		// A rule that cannot be kept (its store failed) still lets this use run: the next one is asked again.
		if (remembered && answer.scope === "always") await this.options.rules.add(ruleFor(request)).catch(() => undefined);
		if (remembered && answer.scope === "session") {
			const rules = this.sessionRules.get(session) ?? [];
			rules.push(ruleFor(request));
			this.sessionRules.set(session, rules);
		}
		return allow(request);
	}
}

function allow(request: ToolUseRequest): ToolUseDecision {
	return { behavior: "allow", updatedInput: { ...request.input } };
}
