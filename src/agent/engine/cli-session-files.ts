/**
 * The CLI's own record of past sessions (2.1.330): `<config dir>/projects/<slug of cwd>/<session id>.jsonl`,
 * where the config dir is `$CLAUDE_CONFIG_DIR` or `~/.claude`, and the slug is the working folder with every
 * character other than a-z, A-Z, 0-9 replaced by `-` (cut at 200 characters plus `-<hash>` when longer; such a
 * folder is found by its prefix). One JSON record per line: `user` / `assistant` records carry `message` as the
 * Messages API has it, plus `uuid`, `timestamp`, `isSidechain`, `isMeta`; other types (queue-operation,
 * attachment, api-request, cost-state, …) are bookkeeping.
 */
import { createReadStream } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { AgentEvent, PastSession } from "../agent-session";
import { CliEventMapper } from "./cli-event-mapper";
import { withoutMentionBreaks } from "./mention-text";
import { isJsonRecord, type JsonRecord } from "../claude-cli/json-lines";

const SLUG_LIMIT = 200;
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** The CLI's config folder for this environment: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigFolder(env: NodeJS.ProcessEnv): string {
	return env["CLAUDE_CONFIG_DIR"] ?? join(env["HOME"] ?? env["USERPROFILE"] ?? homedir(), ".claude");
}

export function projectSlug(folder: string): string {
	return folder.replace(/[^a-zA-Z0-9]/g, "-");
}

/** The folder holding the transcripts of sessions started in `cwd`, or undefined when there is none yet. */
export async function transcriptFolder(configDir: string, cwd: string): Promise<string | undefined> {
	const projects = join(configDir, "projects");
	const slug = projectSlug(cwd);
	let names: string[];
	try {
		names = await readdir(projects);
	} catch {
		return undefined;
	}
	if (slug.length <= SLUG_LIMIT) return names.includes(slug) ? join(projects, slug) : undefined;
	const cut = `${slug.slice(0, SLUG_LIMIT)}-`;
	const found = names.find((name) => name.startsWith(cut));
	return found === undefined ? undefined : join(projects, found);
}

/** The text the user typed in a `user` record, or undefined for tool results, meta records and interruptions. */
export function typedText(record: JsonRecord): string | undefined {
	if (record["type"] !== "user" || record["isSidechain"] === true || record["isMeta"] === true) return undefined;
	const message = record["message"];
	if (!isJsonRecord(message)) return undefined;
	const content = message["content"];
	// The panel's own messages are the images sent, the typed text, then the attachments it read as `document` blocks.
	const text =
		typeof content === "string"
			? content
			: Array.isArray(content) &&
				  content.every(
						(block) =>
							isJsonRecord(block) &&
							(block["type"] === "text" || block["type"] === "document" || block["type"] === "image"),
				  )
				? content
						.flatMap((block) =>
							isJsonRecord(block) && block["type"] === "text" && typeof block["text"] === "string"
								? [block["text"]]
								: [],
						)
						.join("\n")
				: undefined;
	if (text === undefined || text.trim() === "" || text.startsWith("[Request interrupted")) return undefined;
	return withoutMentionBreaks(text);
}

export async function pastSessions(folder: string): Promise<PastSession[]> {
	const files = (await readdir(folder)).filter(
		(name) => name.endsWith(".jsonl") && SESSION_ID.test(name.slice(0, -6)),
	);
	const sessions = await Promise.all(files.map((name) => describeSession(join(folder, name), name.slice(0, -6))));
	return sessions
		.filter((session): session is PastSession => session !== undefined)
		.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

async function describeSession(file: string, sessionId: string): Promise<PastSession | undefined> {
	try {
		const [firstLine, info] = await Promise.all([firstTypedLine(file), stat(file)]);
		return firstLine === undefined ? undefined : { sessionId, firstLine, updatedAt: info.mtime.toISOString() };
	} catch {
		return undefined;
	}
}

/** Reads only as far as the first line the user typed. */
async function firstTypedLine(file: string): Promise<string | undefined> {
	const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
	try {
		for await (const line of lines) {
			const text = typedText(parseRecord(line) ?? {});
			if (text !== undefined) return text.trim().split("\n")[0];
		}
		return undefined;
	} finally {
		lines.close();
	}
}

/**
 * A past session as events: the user's messages (with the CLI's ids), Claude's text and tool calls, and the tool
 * results, along the conversation as it goes on now (`currentBranch`), or up to the message `upTo`.
 */
export async function sessionHistory(folder: string, sessionId: string, upTo?: string): Promise<AgentEvent[]> {
	const mapper = new CliEventMapper();
	return currentBranch(await sessionRecords(folder, sessionId), upTo).flatMap((record): AgentEvent[] => {
		const typed = typedText(record);
		if (typed !== undefined) {
			// The transcript keeps no image's name; the CLI's own copy is in its temporary folder.
			const images = imageCount(record);
			const message = {
				text: typed,
				attachments: [],
				...(images > 0 && {
					images: Array.from({ length: images }, (_, index) => ({ name: `Image ${index + 1}` })),
				}),
			};
			return [
				{ kind: "user-message", message, ...(typeof record["uuid"] === "string" && { id: record["uuid"] }) },
			];
		}
		if (record["type"] === "assistant") return mapper.map(withRecordIdAsMessageId(record));
		if (record["type"] === "user") return mapper.map(record);
		return [];
	});
}

/**
 * The message the user's message `messageId` follows in the session (its parent in the CLI's record: what
 * `--resume-session-at` keeps to go on from just before it); undefined when it is the first.
 */
export async function messageBefore(folder: string, sessionId: string, messageId: string): Promise<string | undefined> {
	const message = (await sessionRecords(folder, sessionId)).find((record) => record["uuid"] === messageId);
	if (message === undefined || typedText(message) === undefined)
		throw new Error(`the message is not in Claude Code's record of session ${sessionId}`);
	return parentOf(message);
}

async function sessionRecords(folder: string, sessionId: string): Promise<JsonRecord[]> {
	if (!SESSION_ID.test(sessionId)) throw new Error(`not a session id: ${sessionId}`);
	const text = await readFile(join(folder, `${sessionId}.jsonl`), "utf8");
	return text.split("\n").flatMap((line): JsonRecord[] => {
		const record = parseRecord(line);
		return record === undefined || record["isSidechain"] === true ? [] : [record];
	});
}

/**
 * The records of the conversation as it goes on now. A rewound conversation keeps its earlier branch in the same
 * file (`--resume-session-at` goes on from a message, the later ones stay behind it), and the CLI resumes from the
 * newest message: its chain of parents back to the first (`logicalParentUuid` across a compaction) is the
 * conversation. A file whose messages name no parents is read in order. `upTo`: the conversation ends at that
 * message instead (where a rewind went back to, before a message was sent from there); not found, it is ignored.
 */
export function currentBranch(records: readonly JsonRecord[], upTo?: string): JsonRecord[] {
	const messages = records.filter((record) => record["type"] === "user" || record["type"] === "assistant");
	const byId = recordsById(records);
	const chosen = upTo === undefined ? undefined : byId.get(upTo);
	const leaf = chosen ?? messages[messages.length - 1];
	if (leaf === undefined || !("parentUuid" in leaf)) return messages;
	const onBranch = new Set<string>();
	let id: string | undefined = typeof leaf["uuid"] === "string" ? leaf["uuid"] : undefined;
	while (id !== undefined && !onBranch.has(id)) {
		onBranch.add(id);
		const record = byId.get(id);
		id = record === undefined ? undefined : parentOf(record);
	}
	return messages.filter((record) => typeof record["uuid"] === "string" && onBranch.has(record["uuid"]));
}

function recordsById(records: readonly JsonRecord[]): Map<string, JsonRecord> {
	const byId = new Map<string, JsonRecord>();
	for (const record of records) if (typeof record["uuid"] === "string") byId.set(record["uuid"], record);
	return byId;
}

function parentOf(record: JsonRecord): string | undefined {
	const parent = record["parentUuid"] ?? record["logicalParentUuid"];
	return typeof parent === "string" ? parent : undefined;
}

function imageCount(record: JsonRecord): number {
	const message = record["message"];
	const content = isJsonRecord(message) ? message["content"] : undefined;
	return Array.isArray(content)
		? content.filter((block) => isJsonRecord(block) && block["type"] === "image").length
		: 0;
}

/** The CLI writes one record per content block under the same message id; the record's uuid tells blocks apart. */
function withRecordIdAsMessageId(record: JsonRecord): JsonRecord {
	const message = record["message"];
	if (!isJsonRecord(message) || typeof record["uuid"] !== "string") return record;
	return { ...record, message: { ...message, id: record["uuid"] } };
}

function parseRecord(line: string): JsonRecord | undefined {
	if (line.trim() === "") return undefined;
	try {
		const value: unknown = JSON.parse(line);
		return isJsonRecord(value) ? value : undefined;
	} catch {
		return undefined;
	}
}
