import type { EditReview } from "../../review/edit-proposal";
import type {
	AskingSession,
	PermissionScope,
	ShellCommandFacts,
	ToolGate,
	ToolPermissionAnswer,
	ToolUseDecision,
	ToolUseRequest,
} from "../agent-session";
import { FILE_MISSING } from "./cli-edit";
import { FILE_WRITE_TOOLS, FileWriteGate } from "./file-write-gate";
import type { WriteJournal } from "../../journal/journal-writer";
import type { GateVault } from "./gate-ports";
import type { PlanFolder } from "./plan-folder";
import { ruleFor, ruleMatches, type PermissionRule, type PermissionRules } from "./permission-rules";
import { toolUseSummary } from "./tool-use-summary";

/** Read-only built-ins that read one file, and the argument naming it. */
const FILE_READ_TOOLS: ReadonlyMap<string, string> = new Map([
	["Read", "file_path"],
	["NotebookRead", "notebook_path"],
]);

/** Built-ins that search or list a folder (none given: the working folder, the vault), and the argument naming it. */
const FOLDER_READ_TOOLS: ReadonlyMap<string, string> = new Map([
	["Glob", "path"],
	["Grep", "path"],
	["LS", "path"],
]);

/** Tools that run a shell command: no command can be proven harmless, so each is asked (see `askShell`). */
const SHELL_TOOLS: ReadonlySet<string> = new Set(["Bash", "Monitor", "PowerShell"]);

/**
 * Built-ins that read no file and run no command: the CLI's own bookkeeping, finding a deferred tool's schema,
 * starting a subagent (whose own tool uses pass this gate one by one) and stopping or reading back what already ran.
 * A tool not named anywhere here is asked, never allowed.
 */
const BOOKKEEPING: ReadonlySet<string> = new Set([
	"TodoWrite",
	"TodoRead",
	"Task",
	"Agent",
	"ToolSearch",
	"ListAgents",
	"TaskStop",
	"TaskOutput",
	"BashOutput",
	"KillShell",
	"KillBash",
	"CronList",
]);

/**
 * Claude asks to leave plan mode; the CLI puts the plan (read from its plan file) in the tool's input as `plan`. It is
 * asked every time, never remembered: a plan is approved plan by plan.
 */
const EXIT_PLAN_MODE = "ExitPlanMode";

/** The tools Claude uses on its plan file while it plans, and the argument naming the file. */
const PLAN_FILE_TOOLS: ReadonlyMap<string, string> = new Map([
	["Write", "file_path"],
	["Edit", "file_path"],
	["MultiEdit", "file_path"],
	["Read", "file_path"],
]);

const ALL_SCOPES: readonly PermissionScope[] = ["once", "session", "always"];
const ONCE_ONLY: readonly PermissionScope[] = ["once"];

export interface PanelToolGateOptions {
	vault: GateVault;
	review: EditReview;
	rules: PermissionRules;
	/** The in-process MCP servers' names: their tools (`mcp__<name>__*`) run, they review their own writes. */
	inProcessServers: () => readonly string[];
	journal?: WriteJournal;
	/**
	 * Whether the session's shell commands run in the CLI's sandbox with the private places held out (and if not,
	 * why). Only then may a rule (for this session, or always) let a shell command run unasked. Default: no sandbox.
	 */
	shellSandbox?: () => ShellSandboxState;
	/** The CLI's plans folder: in plan mode, Claude writes its plan there unasked (see `PlanFolder`). None: it is asked. */
	planFolder?: PlanFolder;
}

/** `tagPrivateReadable`: the sandbox holds the private folders out, not the notes private by a tag (there are some). */
export type ShellSandboxState = { on: true; tagPrivateReadable?: boolean } | { on: false; why?: string };

/**
 * The agent panel's permission routing, for every tool use the CLI makes (its PreToolUse hook matches every tool).
 * File writes of Claude Code's own tools go to the review view; the vault tools served in process run; reads of one
 * file run inside the vault (a private note or folder answers as a missing file), searches run where no private
 * note can be; shell commands are asked in words every time unless the sandbox holds the private places out and a
 * rule allows them; the CLI's own bookkeeping runs; anything else, known or not, runs when an "always" rule or this
 * session's allowance matches, and is asked in the panel otherwise.
 */
export class PanelToolGate implements ToolGate {
	private readonly writes: FileWriteGate;
	private readonly sessionRules = new WeakMap<AskingSession, PermissionRule[]>();
	private nextRequest = 1;

	constructor(private readonly options: PanelToolGateOptions) {
		this.writes = new FileWriteGate({
			vault: options.vault,
			review: options.review,
			...(options.journal ? { journal: options.journal } : {}),
		});
	}

	/** `signal`: aborted when the CLI withdraws the question (`control_cancel_request`); a pending review is withdrawn. */
	async decide(request: ToolUseRequest, session: AskingSession, signal?: AbortSignal): Promise<ToolUseDecision> {
		const { toolName } = request;
		if (this.options.inProcessServers().some((server) => toolName.startsWith(`mcp__${server}__`)))
			return allow(request);
		if (await this.isPlanFileUse(request)) return allow(request);
		if (toolName === EXIT_PLAN_MODE) return this.ask(request, session, ONCE_ONLY);
		if (FILE_WRITE_TOOLS.includes(toolName))
			return this.writes.decide(request, session.sessionId, signal, session.reviewing, session.turn);
		if (SHELL_TOOLS.has(toolName)) return this.askShell(request, session);
		if (BOOKKEEPING.has(toolName)) return allow(request);
		const fileArgument = FILE_READ_TOOLS.get(toolName);
		if (fileArgument !== undefined) {
			const given = request.input[fileArgument];
			if (typeof given === "string" && given !== "") {
				const located = await this.options.vault.locate(given);
				if (located.kind === "visible") return allow(request);
				if (located.kind === "private") return { behavior: "deny", message: FILE_MISSING };
			}
		}
		const folderArgument = FOLDER_READ_TOOLS.get(toolName);
		if (folderArgument !== undefined) {
			const given = request.input[folderArgument];
			const located =
				typeof given === "string" && given !== ""
					? await this.options.vault.locate(given)
					: { kind: "visible" as const, path: "" };
			if (located.kind === "private") return { behavior: "deny", message: FILE_MISSING };
			// A search over a folder that may hold a private note would show its lines or its name: asked.
			if (located.kind === "visible" && !this.options.vault.mayHoldPrivate(located.path)) return allow(request);
		}
		return this.ask(request, session, ALL_SCOPES);
	}

	/**
	 * Claude writes or reads its plan file while the session plans: the CLI's own file outside the vault, which the
	 * CLI lets it write in plan mode and nothing else (a path inside the vault is never one: it goes to review).
	 */
	private async isPlanFileUse(request: ToolUseRequest): Promise<boolean> {
		const argument = PLAN_FILE_TOOLS.get(request.toolName);
		const given = argument === undefined ? undefined : request.input[argument];
		if (request.permissionMode !== "plan" || this.options.planFolder === undefined || typeof given !== "string")
			return false;
		if ((await this.options.vault.locate(given)).kind !== "outside") return false;
		return this.options.planFolder.holds(given);
	}

	/**
	 * The CLI reported a tool's result (the engine calls this for every `tool_result`): a reviewed write it made is
	 * recorded in the activity journal as it is on disk now.
	 */
	toolFinished(toolUseId: string, isError: boolean): Promise<void> {
		return this.writes.toolFinished(toolUseId, isError);
	}

	/**
	 * A shell command, asked every time and in every permission mode: shown with Claude's own description, the folder
	 * it runs in and whether the sandbox holds the private places out. Without the sandbox a command could read any
	 * private note, and with it one can still read the notes private by a tag, so then no rule lets one run unasked
	 * and the user may allow it only once.
	 */
	private async askShell(request: ToolUseRequest, session: AskingSession): Promise<ToolUseDecision> {
		const state = this.options.shellSandbox?.() ?? { on: false };
		const leaves = request.input["dangerouslyDisableSandbox"] === true;
		const sandboxed = state.on && !leaves;
		const why = leaves ? "Claude asked to run it outside the sandbox" : state.on ? undefined : state.why;
		const partial = sandboxed && state.on && state.tagPrivateReadable === true;
		const shell: ShellCommandFacts = {
			command: typeof request.input["command"] === "string" ? request.input["command"] : "",
			...(typeof request.input["description"] === "string" &&
				request.input["description"].trim() !== "" && { description: request.input["description"].trim() }),
			folder: await this.folderOf(request.cwd),
			sandboxed,
			...(why !== undefined && { unsandboxedBecause: why }),
			...(partial && { tagPrivateReadable: true }),
		};
		return this.ask(request, session, sandboxed && !partial ? ALL_SCOPES : ONCE_ONLY, shell);
	}

	/** The folder a shell command runs in, as the user reads it: vault-relative, "" for the vault's top. */
	private async folderOf(cwd: string | undefined): Promise<string> {
		if (cwd === undefined) return "";
		const located = await this.options.vault.locate(cwd);
		if (located.kind === "visible") return located.path;
		return located.kind === "private" ? "a private folder" : cwd;
	}

	private async ask(
		request: ToolUseRequest,
		session: AskingSession,
		scopes: readonly PermissionScope[],
		shell?: ShellCommandFacts,
	): Promise<ToolUseDecision> {
		const remembered = scopes.length > 1;
		if (remembered) {
			const allowed = [...(await this.options.rules.list()), ...(this.sessionRules.get(session) ?? [])];
			if (allowed.some((rule) => ruleMatches(rule, request))) return allow(request);
		}
		const plan = request.toolName === EXIT_PLAN_MODE ? request.input["plan"] : undefined;
		const answer: ToolPermissionAnswer = await session.ask({
			id: `permission-${this.nextRequest++}`,
			...(request.toolUseId !== undefined && { toolUseId: request.toolUseId }),
			toolName: request.toolName,
			input: request.input,
			summary: toolUseSummary(request),
			...(shell !== undefined && { shell }),
			...(scopes !== ALL_SCOPES && { scopes }),
			...(typeof plan === "string" && { plan }),
		});
		if (answer.kind === "deny") return { behavior: "deny", message: denial(request.toolName, answer.reason) };
		if (!scopes.includes(answer.scope))
			return {
				behavior: "deny",
				message: `The panel could not keep that answer for ${request.toolName}; nothing ran.`,
			};
		// A rule that cannot be kept (its store failed) still lets this use run: the next one is asked again.
		if (remembered && answer.scope === "always")
			await this.options.rules.add(ruleFor(request)).catch(() => undefined);
		if (remembered && answer.scope === "session") {
			const rules = this.sessionRules.get(session) ?? [];
			rules.push(ruleFor(request));
			this.sessionRules.set(session, rules);
		}
		// The CLI takes a changed plan from the answer's input: it saves it to the plan file and tells Claude that this
		// is the approved plan, edited by the user (measured with 2.1.330; an unchanged one is read from the file).
		if (request.toolName === EXIT_PLAN_MODE && answer.plan !== undefined && answer.plan !== plan)
			return { behavior: "allow", updatedInput: { ...request.input, plan: answer.plan } };
		return allow(request);
	}
}

/** What Claude reads when the user says no: for a plan, that they want it to keep planning, and what to change. */
function denial(toolName: string, reason: string | undefined): string {
	const given = reason?.trim() ?? "";
	if (toolName === EXIT_PLAN_MODE)
		return given === ""
			? "The user did not approve the plan yet: keep planning, and ask them what to change if it is not clear."
			: `The user did not approve the plan yet and wants you to keep planning: ${given}`;
	return given === ""
		? `The user denied this use of ${toolName}.`
		: `The user denied this use of ${toolName}: ${given}`;
}

function allow(request: ToolUseRequest): ToolUseDecision {
	return { behavior: "allow", updatedInput: { ...request.input } };
}
