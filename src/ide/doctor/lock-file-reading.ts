import { basename } from "node:path";
import { describeError } from "../../shared/describe-error";

/** The fields the CLI reads from any editor's lock file, each present only if it has the right type. */
export interface LockFileFields {
	pid?: number;
	workspaceFolders: string[];
	ideName?: string;
	transport?: string;
	authToken?: string;
	/** Set by this plugin (`claude-code-bridge`); other editors leave it out. */
	writer?: string;
}

export type LockFileReading =
	| { kind: "read"; fields: LockFileFields }
	| { kind: "unreadable"; reason: string }
	| { kind: "not-json" };

/** The port a lock file stands for: the CLI takes it from the file name only. */
export function portOfLockFile(path: string): number | undefined {
	const name = basename(path);
	if (!name.endsWith(".lock")) return undefined;
	const port = Number.parseInt(name.slice(0, -".lock".length), 10);
	return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

/** Reads any editor's lock file without trusting its shape. */
export async function readLockFileFields(path: string, readFile: (path: string) => Promise<string>): Promise<LockFileReading> {
	let text: string;
	try {
		text = await readFile(path);
	} catch (error) {
		return { kind: "unreadable", reason: describeError(error) };
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { kind: "not-json" };
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { kind: "not-json" };
	const record = parsed as Record<string, unknown>;
	const fields: LockFileFields = {
		workspaceFolders: Array.isArray(record.workspaceFolders)
			? record.workspaceFolders.filter((folder): folder is string => typeof folder === "string")
			: [],
	};
	if (typeof record.pid === "number") fields.pid = record.pid;
	if (typeof record.ideName === "string") fields.ideName = record.ideName;
	if (typeof record.transport === "string") fields.transport = record.transport;
	if (typeof record.authToken === "string") fields.authToken = record.authToken;
	if (typeof record.writer === "string") fields.writer = record.writer;
	return { kind: "read", fields };
}
