import type { InProcessMcpServers } from "../agent/agent-session";
import type { AttachmentResolver } from "../agent/engine/attachment-resolver";
import { PanelToolGate, type ShellSandboxState } from "../agent/gate/panel-tool-gate";
import type { PlanFolder } from "../agent/gate/plan-folder";
import { PrivacyGateVault } from "../agent/gate/privacy-gate-vault";
import type { PermissionRules } from "../agent/gate/permission-rules";
import type { EditReview } from "../review/edit-proposal";
import type { VaultIndex } from "../vault/notes/vault-index";
import type { Bridge } from "./bridge-assembly";
import {
	InProcessVaultTools,
	noInProcessServers,
	PANEL_VAULT_TOOLS_SERVER,
} from "../vault-tools/serve/in-process-vault-tools";
import { JournalRecorders, linkResolver, noteReferences, pathLocator } from "./journal-wiring";
import { PanelAttachments } from "../agent/engine/panel-attachments";
import { readTextIfExists } from "../shared/read-text-if-exists";
import { bytesOnDisk } from "../journal/journal-writer";
import { JournalConversation } from "../journal/journal-conversation";

export interface AgentAssemblyOptions {
	/** Where "always" rules are kept: the plugin's data, or `JsonFilePermissionRules` for the headless host. */
	rules: PermissionRules;
	/** Where file writes are reviewed. Default: the bridge's own review (the review view, or the headless `diff` commands). */
	review?: EditReview;
	/** The vault tools' index, so the journal names the notes a link argument names (as the bridge's recorders do). */
	index?: VaultIndex;
	/** Whether this session's shell commands run in the sandbox (known once its guard is decided). Default: no sandbox. */
	shellSandbox?: () => ShellSandboxState;
	/** The CLI's plans folder, where Claude writes its plan while the session plans. None: such a write is refused. */
	planFolder?: PlanFolder;
}

/** The MCP servers of one CLI session: end them with the session. */
export interface PanelMcpServers extends InProcessMcpServers {
	dispose(): void;
}

/** What the agent panel's engine needs for a vault: the tool gate, and the in-process MCP servers per session. */
export interface AgentParts {
	/** Decides every tool use; the engine also calls `gate.toolFinished(toolUseId, isError)` for every tool result. */
	gate: PanelToolGate;
	/** New servers for one CLI session (its own MCP session and journal session); empty when the bridge has no vault tools. */
	mcpServers: () => PanelMcpServers;
	/** Reads what the user attaches to a message through the privacy boundary (the CLI is never handed a mention). */
	attachments: AttachmentResolver;
	/**
	 * Titles the conversation in the activity journal with the user's first words (the first call wins): its vault
	 * tools' calls and its own writes are one conversation there.
	 */
	nameConversation: (words: string) => void;
	/**
	 * The conversation is Claude Code's session `sessionId` (the one it resumes, or the one it reported when it
	 * started): the journal keeps it under that session, so a conversation resumed later goes on in the same group.
	 */
	isClaudeSession: (sessionId: string) => void;
}

/**
 * The agent panel's parts over a running bridge, for the plugin and the headless host alike: the same privacy
 * boundary, the same review (vault-tool writes and Claude Code's own writes side by side), the same vault tools,
 * and the same activity journal (surface "panel"), with the CLI's own writes recorded with their pre-images. One
 * assembly is one conversation: its vault tools' calls and its writes share one journal session.
 */
export function assembleAgent(
	bridge: Pick<Bridge, "paths" | "privacy" | "reviews" | "vaultTools" | "activity">,
	options: AgentAssemblyOptions,
): AgentParts {
	const absolutePath = (vaultPath: string): string => bridge.paths.toAbsolute(vaultPath);
	const journal = bridge.activity?.journal;
	const recorders =
		options.index === undefined
			? bridge.activity?.recorders
			: journal
				? new JournalRecorders(
						journal,
						noteReferences(bridge.privacy, linkResolver(options.index), pathLocator(bridge.paths)),
					)
				: undefined;
	const conversation = journal
		? new JournalConversation(journal, "panel", "claude-code", recorders?.references)
		: undefined;
	const gate = new PanelToolGate({
		vault: new PrivacyGateVault(bridge.privacy),
		review: options.review ?? bridge.reviews,
		rules: options.rules,
		inProcessServers: () => (bridge.vaultTools ? [PANEL_VAULT_TOOLS_SERVER] : []),
		...(options.shellSandbox ? { shellSandbox: options.shellSandbox } : {}),
		...(options.planFolder ? { planFolder: options.planFolder } : {}),
		// The CLI writes outside the root's cache: its result is read from disk.
		...(bridge.activity
			? {
					journal: bridge.activity.writer.approvedBy({
						surface: "panel",
						client: "claude-code",
						bytes: { readBytes: (path) => bytesOnDisk(absolutePath(path)) },
						...(conversation ? { conversation } : {}),
					}),
				}
			: {}),
	});
	return {
		gate,
		attachments: new PanelAttachments(bridge.privacy, { readText: readTextIfExists }),
		mcpServers: () => {
			const server = bridge.vaultTools;
			if (!server) return noInProcessServers();
			// The recorder asks which turn a call belongs to when it starts: the turn of the message it came in.
			const tools: InProcessVaultTools = new InProcessVaultTools(
				server,
				recorders?.recorder("panel", { ...(conversation && { conversation }), turn: () => tools.turn }),
			);
			return tools;
		},
		nameConversation: (words) => conversation?.name(words),
		isClaudeSession: (sessionId) => conversation?.isClaudeSession(sessionId),
	};
}
