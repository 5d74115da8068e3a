/** One file of the vault as the files port lists it. */
export interface VaultFileEntry {
	/** Vault-relative path. */
	path: string;
	size: number;
}

/** A port refuses a path it will not serve (a private note); the message says so to the client. */
export class RefusedPathError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "RefusedPathError";
	}
}

/** The vault's files as bytes (the IDE's `files/read` and `resources/*`): the Obsidian vault or a folder on disk. */
export interface VaultFileBytes {
	/** Every file of the vault, in any order (hidden folders such as the config folder left out). */
	list(): VaultFileEntry[] | Promise<VaultFileEntry[]>;
	/** Size of a file, or undefined when there is no file at that path. */
	stat(relativePath: string): Promise<{ size: number } | undefined>;
	readBytes(relativePath: string): Promise<Uint8Array>;
}
