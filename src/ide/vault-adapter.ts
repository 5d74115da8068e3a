import { isUtf8 } from "node:buffer";
import { pathToFileURL } from "node:url";
import { EncodedJson } from "../protocol/encoded-json";
import { ErrorCode, JsonRpcError, type JsonObject } from "../protocol/json-rpc";
import type { MethodHandler } from "../protocol/mcp-session";
import { isTextMimeType, mimeTypeFor } from "../vault/mime-types";
import type { SelectionSnapshot } from "./workspace/selection";
import { VaultPathError, type VaultLocation, type VaultPaths } from "../vault/vault-paths";
import { RefusedPathError, type VaultFileEntry, type VaultFileBytes } from "../vault/notes/vault-files";

/** MCP's "resource not found" code up to protocol 2025-11-25. */
export const RESOURCE_NOT_FOUND = -32002;

export interface VaultAdapterOptions {
	paths: VaultPaths;
	/** The vault's files with private ones already hidden (`VaultPrivacy.files`). */
	files: VaultFileBytes;
	/** The editor's selection, undefined while the active note is private (`VaultPrivacy.selection`). */
	currentSelection: () => SelectionSnapshot | undefined;
	maxReadBytes: number;
	pageSize: number;
}

/** How long a listing made for a first page serves the following pages. */
const LISTING_REUSE_MS = 5000;

/** `isUtf8` from node:buffer where the runtime has it (Node ≥ 18.14), else a fatal decoder (slower). */
const validUtf8: (bytes: Uint8Array) => boolean = typeof isUtf8 === "function" ? isUtf8 : decodesAsUtf8;

function decodesAsUtf8(bytes: Uint8Array): boolean {
	try {
		new TextDecoder("utf-8", { fatal: true }).decode(bytes);
		return true;
	} catch {
		return false;
	}
}

/**
 * Answers the bridge's own JSON-RPC methods: `files/read`, `workspace/selection`, `resources/list` and
 * `resources/read`. Every path is confined to the vault; the ports it is given refuse private notes and hidden folders.
 */
export class VaultAdapter {
	/** The sorted listing of the last first page, reused by the pages that follow it. */
	private listing: { entries: VaultFileEntry[]; madeAt: number } | undefined;

	constructor(private readonly options: VaultAdapterOptions) {}

	methods(): Map<string, MethodHandler> {
		return new Map<string, MethodHandler>([
			["files/read", (params) => this.readFile(params)],
			["workspace/selection", () => this.selection()],
			["resources/list", (params) => this.listResources(params)],
			["resources/read", (params) => this.readResource(params)],
		]);
	}

	/** `{ path, filePath, size, text }`, encoded straight from the file's bytes (a large note is never decoded). */
	private async readFile(params: JsonObject): Promise<EncodedJson> {
		const path = params.path;
		if (typeof path !== "string")
			throw invalidParams('files/read needs "path": a vault-relative or absolute path inside the vault');
		const location = this.locate(path);
		const bytes = await this.readAllowed(location, ErrorCode.InvalidParams);
		checkUtf8(bytes, path);
		return EncodedJson.objectWithText(
			{ path: location.relative, filePath: location.absolute, size: bytes.byteLength },
			"text",
			bytes,
		);
	}

	private selection(): JsonObject {
		const current = this.options.currentSelection();
		return current ?? { activeNote: null, message: "No active note" };
	}

	private async listResources(params: JsonObject): Promise<JsonObject> {
		const cursor = params.cursor;
		if (cursor !== undefined && typeof cursor !== "string")
			throw invalidParams('"cursor" must be a string from a previous nextCursor');
		const after = cursor === undefined ? undefined : decodeCursor(cursor);
		const entries = await this.sortedListing(after !== undefined);
		const start = after === undefined ? 0 : firstIndexAfter(entries, after);
		const page = entries.slice(start, start + this.options.pageSize);
		const resources = page.map((entry) => ({
			uri: pathToFileURL(this.options.paths.toAbsolute(entry.path)).href,
			name: entry.path,
			mimeType: mimeTypeFor(entry.path),
			size: entry.size,
		}));
		const last = page.at(-1);
		const result: JsonObject = { resources };
		if (last && start + page.length < entries.length) result.nextCursor = encodeCursor(last.path);
		return result;
	}

	/**
	 * A client pages through a big vault right after connecting: the listing is filtered and sorted once for
	 * the first page and reused for the next pages while it is fresh, instead of once per page.
	 */
	private async sortedListing(continuing: boolean): Promise<VaultFileEntry[]> {
		const now = Date.now();
		if (continuing && this.listing && now - this.listing.madeAt < LISTING_REUSE_MS) return this.listing.entries;
		const entries = (await this.options.files.list()).sort((a, b) => compare(a.path, b.path));
		this.listing = { entries, madeAt: now };
		return entries;
	}

	private async readResource(params: JsonObject): Promise<JsonObject | EncodedJson> {
		const uri = params.uri;
		if (typeof uri !== "string" || !uri.startsWith("file:"))
			throw invalidParams('resources/read needs "uri": a file:// URI from resources/list');
		const location = this.locate(uri);
		const bytes = await this.readAllowed(location, RESOURCE_NOT_FOUND);
		const mimeType = mimeTypeFor(location.relative);
		if (isTextMimeType(mimeType)) {
			checkUtf8(bytes, uri);
			return EncodedJson.objectWithText({ uri, mimeType }, "text", bytes).within('{"contents":[', "]}");
		}
		return { contents: [{ uri, mimeType, blob: Buffer.from(bytes).toString("base64") }] };
	}

	private locate(path: string): VaultLocation {
		try {
			return this.options.paths.resolve(path);
		} catch (error) {
			if (error instanceof VaultPathError) throw invalidParams(error.message);
			throw error;
		}
	}

	private async readAllowed(location: VaultLocation, notFoundCode: number): Promise<Uint8Array> {
		try {
			const stat = await this.options.files.stat(location.relative);
			if (!stat) throw new JsonRpcError(notFoundCode, `Not found: ${location.relative}`);
			if (stat.size > this.options.maxReadBytes) {
				throw invalidParams(
					`Refused: ${location.relative} is ${formatMiB(stat.size)}, over the ${formatMiB(this.options.maxReadBytes)} limit for reading through the bridge`,
				);
			}
			return await this.options.files.readBytes(location.relative);
		} catch (error) {
			if (error instanceof RefusedPathError) throw invalidParams(error.message);
			throw error;
		}
	}
}

function invalidParams(message: string): JsonRpcError {
	return new JsonRpcError(ErrorCode.InvalidParams, message);
}

function checkUtf8(bytes: Uint8Array, path: string): void {
	if (!validUtf8(bytes))
		throw invalidParams(`Refused: ${path} is not UTF-8 text; use resources/read for binary files`);
}

function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function firstIndexAfter(entries: VaultFileEntry[], after: string): number {
	let low = 0;
	let high = entries.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (compare(entries[middle]?.path ?? "", after) <= 0) low = middle + 1;
		else high = middle;
	}
	return low;
}

function encodeCursor(lastPath: string): string {
	return Buffer.from(JSON.stringify({ after: lastPath }), "utf8").toString("base64url");
}

function decodeCursor(cursor: string): string {
	try {
		const decoded: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
		if (typeof decoded === "object" && decoded !== null && "after" in decoded && typeof decoded.after === "string")
			return decoded.after;
	} catch {
		// fall through to the error below
	}
	throw invalidParams("Invalid cursor: pass the nextCursor of the previous page unchanged");
}

function formatMiB(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
