import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeFileSystem, PathIdentity, type PathFileSystem } from "./path-identity";

/** A path argument that does not name a place inside the vault. */
export class VaultPathError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "VaultPathError";
	}
}

/** A place inside the vault, resolved from a path argument: the one meaning of "vault location". */
export interface VaultLocation {
	/** Vault-relative, forward slashes, no leading slash; "" for the vault root. */
	relative: string;
	/** Absolute filesystem path under the vault root as the app knows it (the CLI's convention on the wire). */
	absolute: string;
	/**
	 * Vault-relative path of the real file when a symbolic link inside the vault leads elsewhere in it; absent
	 * otherwise. Privacy and hidden-folder checks must look at both paths.
	 */
	realRelative?: string;
}

/**
 * The one place where wire paths (absolute, or vault-relative, or file:// URIs) become vault paths and back.
 * Everything that resolves outside the vault is refused: `..`, absolute paths elsewhere, symlinks that lead
 * out, NUL bytes, and percent-encoded escapes.
 */
export class VaultPaths {
	readonly root: string;
	/**
	 * The vault's canonical path identity (NFC, case-folded where the volume is case-insensitive): what privacy
	 * rules and paths are compared in. Give it `realRelative ?? relative` of a location.
	 */
	readonly identity: PathIdentity;
	private readonly realRoot: string;

	constructor(
		vaultRoot: string,
		private readonly fileSystem: PathFileSystem = nodeFileSystem,
	) {
		this.root = resolve(vaultRoot);
		this.realRoot = fileSystem.realpath(this.root) ?? this.root;
		this.identity = new PathIdentity(this.realRoot, fileSystem);
	}

	/** Resolves a path from the wire. Throws VaultPathError with a message a person can act on. */
	resolve(input: string): VaultLocation {
		if (input.includes("\0")) throw new VaultPathError("Invalid path: it contains a NUL byte");
		if (input.trim() === "") throw new VaultPathError("Invalid path: it is empty");
		if (/%(?:2e|2f|5c|00)/i.test(input) && !input.startsWith("file:")) {
			const decoded = safeDecode(input) ?? input;
			if (decoded !== input && (decoded.includes("\0") || /(^|[\\/])\.\.([\\/]|$)/.test(decoded))) {
				throw new VaultPathError(
					`Path is outside the vault: ${input} (it contains an encoded "..", separator or NUL)`,
				);
			}
		}
		const raw = input.startsWith("file:") ? this.fromFileUri(input) : input;
		const absolute = isAbsolute(raw) ? resolve(raw) : resolve(this.root, raw);
		const underRoot = this.relativeInside(absolute, this.root);
		const lexical = underRoot ?? this.relativeInside(absolute, this.realRoot);
		if (lexical === undefined) throw new VaultPathError(`Path is outside the vault: ${input}`);
		const real = realpathOfNearestExisting(absolute, this.fileSystem);
		const realRelative = real === undefined ? undefined : this.relativeInside(real, this.realRoot);
		if (realRelative === undefined) {
			throw new VaultPathError(`Path is outside the vault: ${input} (a symbolic link leads out of it)`);
		}
		// Under the root as given, `absolute` is already the path toAbsolute would build.
		const location: VaultLocation = {
			relative: lexical,
			absolute: underRoot === undefined ? this.toAbsolute(lexical) : absolute,
		};
		if (realRelative !== lexical) location.realRelative = realRelative;
		return location;
	}

	/** How many hard links the file at a vault path has (one stat); undefined when it cannot be told. */
	linkCount(relativePath: string): number | undefined {
		return this.fileSystem.linkCount(this.toAbsolute(relativePath));
	}

	toAbsolute(relativePath: string): string {
		return relativePath === "" ? this.root : resolve(this.root, ...relativePath.split("/"));
	}

	private fromFileUri(uri: string): string {
		// The common spelling (pathToFileURL's, or the CLI's plain "file://" + path) read without the URL parser; it
		// decodes to what fileURLToPath would give. Anything else (a host, a query, %2F, %00, odd characters) is parsed.
		if (sep === "/" && PLAIN_FILE_URI.test(uri) && !/%(?:2f|00)/i.test(uri)) {
			const decoded = safeDecode(uri.slice("file://".length));
			if (decoded !== undefined) return decoded;
		}
		try {
			// A file path has no query or fragment: a "#" or "?" comes from a raw "file://" + path (encoding escapes them).
			const url = new URL(uri);
			if (url.search !== "" || url.hash !== "" || uri.endsWith("?") || uri.endsWith("#"))
				throw new TypeError("raw file URI");
			const path = fileURLToPath(url);
			if (path.includes("\0")) throw new VaultPathError("Invalid path: it contains a NUL byte");
			return path;
		} catch (error) {
			if (error instanceof VaultPathError) throw error;
			// The CLI builds URIs by plain concatenation ("file://" + path), so spaces and % may be raw.
			const raw = uri.replace(/^file:\/\//, "");
			if (!isAbsolute(raw)) throw new VaultPathError(`Invalid file URI: ${uri}`);
			return raw;
		}
	}

	/** `absolute` and `root` are resolved paths (no `.` or `..` parts, no trailing separator but at a file-system root). */
	private relativeInside(absolute: string, root: string): string | undefined {
		// The common case without path.relative, which resolves both paths again (a tenth of a selection's CPU).
		if (absolute === root) return "";
		const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
		if (absolute.startsWith(prefix))
			return sep === "/" ? absolute.slice(prefix.length) : absolute.slice(prefix.length).split(sep).join("/");
		const rel = relative(root, absolute);
		if (rel === "") return "";
		if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
		return rel.split(sep).join("/");
	}
}

/** file:///path with only characters a URL path keeps as they are, and percent escapes. */
const PLAIN_FILE_URI = /^file:\/\/\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;

function safeDecode(text: string): string | undefined {
	try {
		return decodeURIComponent(text);
	} catch {
		return undefined;
	}
}

/**
 * The real path of `path`, or of its nearest existing ancestor with the rest appended (for files not yet
 * created). Undefined for a dangling symbolic link, whose target cannot be checked.
 */
function realpathOfNearestExisting(path: string, fileSystem: PathFileSystem): string | undefined {
	const rest: string[] = [];
	let current = path;
	for (;;) {
		const real = fileSystem.realpath(current);
		if (real !== undefined) return rest.length === 0 ? real : resolve(real, ...rest.reverse());
		if (fileSystem.isSymbolicLink(current)) return undefined;
		const parent = dirname(current);
		if (parent === current) return path;
		rest.push(current.slice(parent.length).replace(/^[\\/]/, ""));
		current = parent;
	}
}
