import type { Bridge } from "../assembly/bridge-assembly";
import type { BridgeStatus } from "../ide/bridge-host";
import type { HeadlessCommand } from "./command-loop";
import { parsePosition, type HeadlessEditor } from "./headless-editor";

/** One line of JSON for `status`. */
export function statusLine(status: BridgeStatus): string {
	return JSON.stringify({
		state: status.state,
		port: status.port ?? null,
		lockFile: status.lockFilePath ?? null,
		tokenFingerprint: status.tokenFingerprint ?? null,
		clients: status.clients.map((client) => ({
			id: client.id,
			pid: client.pid ?? null,
			client: client.clientName ?? null,
			since: client.connectedAt.toISOString(),
		})),
	});
}

/** The stdin commands that drive the editor stand-in, tagging and the token: the same Notifier and token code as the plugin. */
export function contextCommands(bridge: Bridge, editor: HeadlessEditor): [string, HeadlessCommand][] {
	return [
		[
			"open",
			{
				usage: "open <path>",
				summary: "make a note the active note (sends its cursor)",
				run: ([path]) => {
					const snapshot = editor.open(required(path, "open <path>"));
					return `Opened ${snapshot.filePath}`;
				},
			},
		],
		[
			"select",
			{
				usage: "select <path> <line>:<ch> <line>:<ch>",
				summary: "select text in a note (0-based), sent as selection_changed",
				run: ([path, from, to]) => {
					const note = required(path, "select <path> <line>:<ch> <line>:<ch>");
					if (from === undefined || to === undefined) {
						throw new Error(
							`select needs a start and an end position: select <path> <line>:<character> <line>:<character> (0-based; select ${note} 0:0 0:5 selects the first five characters)`,
						);
					}
					const snapshot = editor.select(note, parsePosition(from), parsePosition(to));
					return `Selected ${snapshot.text.length} characters in ${snapshot.filePath}`;
				},
			},
		],
		[
			"tag",
			{
				usage: "tag <path> [<startLine> <endLine>]",
				summary: "tag a note, lines (0-based) or folder (path ending in /) for Claude",
				run: ([path, start, end]) => {
					const wanted = required(path, "tag <path> [<startLine> <endLine>]");
					const location = bridge.paths.resolve(wanted);
					const isFolder = wanted.endsWith("/");
					const mention: { filePath: string; lineStart?: number; lineEnd?: number } = {
						filePath: isFolder ? `${location.absolute}/` : location.absolute,
					};
					if (start !== undefined) {
						if (isFolder) throw new Error("A folder tag has no lines");
						mention.lineStart = lineNumber(start);
						mention.lineEnd = end === undefined ? mention.lineStart : lineNumber(end);
					}
					const outcome = bridge.notifier.mention(mention, location);
					if (outcome === "queued")
						return `Queued the tag until Claude Code connects (${bridge.notifier.queuedMentions} waiting)`;
					if (outcome === "private") return "Not sent: the note is private (excluded)";
					return `Tagged ${mention.filePath}`;
				},
			},
		],
		[
			"rotate",
			{
				usage: "rotate",
				summary: "new token: lock file rewritten, open sessions closed",
				run: async () => {
					const status = await bridge.host.rotateToken();
					return `Token rotated (fingerprint ${status.tokenFingerprint ?? "?"}); run /ide in Claude Code to reconnect`;
				},
			},
		],
		[
			"status",
			{
				usage: "status",
				summary: "one line of JSON: port, lock file, clients",
				run: () => statusLine(bridge.host.status()),
			},
		],
	];
}

function required(value: string | undefined, usage: string): string {
	if (value === undefined || value === "") throw new Error(`Usage: ${usage}`);
	return value;
}

function lineNumber(text: string): number {
	if (!/^\d+$/.test(text)) throw new Error(`Expected a 0-based line number, not "${text}"`);
	return Number(text);
}
