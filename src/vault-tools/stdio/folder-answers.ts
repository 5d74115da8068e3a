import { ErrorCode, JsonRpcError } from "../../protocol/json-rpc";
import type { MethodHandler } from "../../protocol/mcp-session";
import { toolError, type ToolDefinition } from "../../protocol/mcp-types";

export interface FolderAnswersOptions {
	/** The folder's own tools and methods (resources, prompts), as the core answers them. */
	tools: readonly ToolDefinition[];
	methods: ReadonlyMap<string, MethodHandler>;
	vaultName: string;
	/** The user turned the vault tools off in the plugin: then the folder does not answer for Obsidian either. */
	turnedOff: () => boolean;
	/** The folder is about to answer a call (its journal id, when the session gave one). */
	answering: (journalId: string | undefined) => void;
	/** The folder answers: it is read (`FolderReading.reading`). */
	reading: () => void;
	/** The folder has answered a call (`FolderReading.answered`). */
	answered?: () => void;
}

/** The folder's tools and methods as the stdio server answers them itself: refused while turned off in the plugin. */
export function folderAnswers(options: FolderAnswersOptions): {
	tools: ToolDefinition[];
	methods: Map<string, MethodHandler>;
} {
	const { turnedOff, answering, reading } = options;
	const answered = options.answered ?? (() => undefined);
	const tools = options.tools.map((tool): ToolDefinition => ({
		...tool,
		call: (args, context) => {
			answering(context.journalId);
			if (turnedOff()) return Promise.resolve(toolError(turnedOffWords(tool.name, options.vaultName)));
			reading();
			return tool.call(args, context).finally(answered);
		},
	}));
	const methods = new Map(
		[...options.methods].map(([method, handler]): [string, MethodHandler] => [
			method,
			(params, context) => {
				answering(context.journalId);
				if (turnedOff())
					throw new JsonRpcError(ErrorCode.InvalidRequest, turnedOffWords(method, options.vaultName));
				reading();
				const answer = handler(params, context);
				return answer instanceof Promise ? answer.finally(answered) : (answered(), answer);
			},
		]),
	);
	return { tools, methods };
}

function turnedOffWords(name: string, vaultName: string): string {
	return `${name}: the vault tools are turned off in Claude Code Bridge's settings for the vault "${vaultName}" (Obsidian → Settings → Claude Code Bridge); nothing was read or changed.`;
}

/**
 * Why the folder's write tools change nothing: a bridge was found but refused (it would show what this vault's
 * privacy settings hide), or none runs. Writes need the bridge; reads answer from the files meanwhile.
 */
export function folderWritesUnavailable(vaultName: string, root: string, bridgeRefused: boolean): string {
	return bridgeRefused
		? `the bridge running for the vault "${vaultName}" was not used: it would show notes that this vault's privacy settings hide, or cannot say which notes it hides (the log of \`claude-code-bridge mcp\` on stderr says which rules). Writes need the bridge; read tools answer from the files meanwhile. Ask the user to restart it with the vault's privacy settings (or to update it), then call again.`
		: `Obsidian is not running for the vault "${vaultName}" (${root}), so this change cannot be made: writes need it (Obsidian's index, link-safe renames and the review of each change). Ask the user to open the vault in Obsidian with Claude Code Bridge enabled (or to run \`claude-code-bridge serve --vault "${root}"\`), then call again. Read tools keep working from the files meanwhile.`;
}
