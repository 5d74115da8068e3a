import { readFile, stat } from "node:fs/promises";
import type { VaultPrivacy } from "../../vault/privacy/vault-privacy";
import { VaultPathError, type VaultLocation } from "../../vault/vault-paths";
import type { GatePath, GateVault } from "./gate-ports";

/** A file's bytes; undefined when there is none. Other failures are thrown. */
async function bytesIfExists(absolutePath: string): Promise<Uint8Array | undefined> {
	try {
		return await readFile(absolutePath);
	} catch (error) {
		const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		throw error;
	}
}

/** What a path names on disk now: a file, a folder, or nothing. */
export type PathKind = "file" | "folder" | "none";

async function kindOnDisk(absolutePath: string): Promise<PathKind> {
	try {
		return (await stat(absolutePath)).isDirectory() ? "folder" : "file";
	} catch {
		return "none";
	}
}

/**
 * The gate's view of the vault through its one privacy boundary: a path resolved as every wire path is (outside
 * the vault, also through a symbolic link, is outside); an existing file judged by `VaultPrivacy.hides` (folders,
 * tags, hidden, the link's target too), a folder or a new file by its folder alone, as the vault tools judge a new
 * note. A file is read through the boundary's reader, which never reads a private file.
 */
export class PrivacyGateVault implements GateVault {
	private readonly readBytes: (absolutePath: string) => Promise<Uint8Array | undefined>;
	private readonly kindOf: (absolutePath: string) => Promise<PathKind>;

	constructor(
		private readonly privacy: VaultPrivacy,
		options: {
			readBytes?: (absolutePath: string) => Promise<Uint8Array | undefined>;
			kindOf?: (absolutePath: string) => Promise<PathKind>;
		} = {},
	) {
		this.readBytes = options.readBytes ?? bytesIfExists;
		this.kindOf = options.kindOf ?? kindOnDisk;
	}

	async locate(path: string): Promise<GatePath> {
		let location: VaultLocation;
		try {
			location = this.privacy.paths.resolve(path);
		} catch (error) {
			if (error instanceof VaultPathError) return { kind: "outside" };
			throw error;
		}
		const kind = await this.kindOf(location.absolute);
		const hidden = kind === "file" ? this.privacy.hides(location) : this.inPrivateFolder(location);
		return hidden ? { kind: "private" } : { kind: "visible", path: location.relative };
	}

	mayHoldPrivate(vaultPath: string): boolean {
		return this.privacy.mayHoldPrivate(vaultPath);
	}

	async readFile(vaultPath: string): Promise<{ bytes: Uint8Array; text: string } | undefined> {
		let bytes: Uint8Array | undefined;
		// Through the boundary's reader, which never reads a private file.
		const read = this.privacy.textReader(async (absolutePath) => {
			bytes = await this.readBytes(absolutePath);
			return bytes === undefined ? undefined : Buffer.from(bytes).toString("utf8");
		});
		const text = await read(this.privacy.paths.toAbsolute(vaultPath));
		return text === undefined || bytes === undefined ? undefined : { bytes, text };
	}

	private inPrivateFolder(location: VaultLocation): boolean {
		return (
			this.privacy.isInPrivateFolder(location.relative) ||
			(location.realRelative !== undefined && this.privacy.isInPrivateFolder(location.realRelative))
		);
	}
}
