import { readLockFile, type LockFileRule } from "../../server/lock-file-reader";

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

export type LockFileFieldsReading =
	| { kind: "read"; fields: LockFileFields; port: number | undefined }
	| { kind: "not-json" }
	| { kind: "missing" }
	| { kind: "unreadable"; reason: string }
	| { kind: "refused"; rule: LockFileRule; reason: string };

/** Reads any editor's lock file through the shared untrusted-input reader, keeping only fields of the right type. */
export async function readLockFileFields(path: string, platform: NodeJS.Platform): Promise<LockFileFieldsReading> {
	const reading = await readLockFile(path, { platform });
	if (reading.kind === "not-json") return { kind: "not-json" };
	if (reading.kind !== "read") return reading;
	const { record } = reading;
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
	return { kind: "read", fields, port: reading.port };
}
