import { LinkResolver } from "../../vault/notes/link-resolver";

/**
 * Obsidian's link resolution among the files a caller counts, for a link whose first destination
 * (`getFirstLinkpathDest`) it does not count: a private note never shadows a public one of the same name. The
 * vault's files by name (`LinkResolver`: exact path, then beside the source, then the shortest path), built when
 * first needed and again after the caller's structure version moved.
 */
export class FilesByName {
	private built: { version: number; index: LinkResolver } | undefined;

	constructor(private readonly files: () => readonly { path: string }[]) {}

	/**
	 * Where `linkpath` leads from `sourcePath` among the files `exists` accepts, given Obsidian's own answer
	 * (`first`). An answer it accepts stands: removing other files cannot change Obsidian's first choice, and a
	 * link that leads nowhere leads nowhere in a smaller vault too.
	 */
	resolve(
		first: string | undefined,
		linkpath: string,
		sourcePath: string,
		exists: (path: string) => boolean,
		version: number,
	): string | undefined {
		if (first === undefined || exists(first)) return first;
		if (this.built?.version !== version) {
			const index = new LinkResolver();
			for (const file of this.files()) index.add(file.path);
			this.built = { version, index };
		}
		return this.built.index.resolve(linkpath, sourcePath, exists);
	}
}
