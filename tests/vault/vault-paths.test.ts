import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { VaultPathError, VaultPaths } from "../../src/vault/vault-paths";
import { makeTempDir } from "../helpers/temp-dir";

/*
 * Layout (real folders and symlinks under a temp dir):
 *   outside/secret.txt, outside/dir/
 *   vault/Notes/a.md, vault/My Folder/b c.md, vault/Ünï/ç 📝.md
 *   vault/link-out        -> outside/dir        (folder symlink leading out)
 *   vault/file-out.md     -> outside/secret.txt (file symlink leading out)
 *   vault/link-in         -> vault/Notes        (folder symlink staying inside)
 *   vault/dangling.md     -> outside/missing.md (dangling)
 *   vault-link            -> vault              (the vault given through a symlink)
 */
describe("VaultPaths.resolve", () => {
	const temp = makeTempDir("vault-paths");
	const vault = join(temp.path, "vault");
	const outside = join(temp.path, "outside");
	const vaultLink = join(temp.path, "vault-link");
	let paths: VaultPaths;

	beforeAll(() => {
		mkdirSync(join(outside, "dir"), { recursive: true });
		writeFileSync(join(outside, "secret.txt"), "secret");
		mkdirSync(join(vault, "Notes"), { recursive: true });
		mkdirSync(join(vault, "My Folder"));
		mkdirSync(join(vault, "Ünï"));
		writeFileSync(join(vault, "Notes", "a.md"), "a");
		writeFileSync(join(vault, "My Folder", "b c.md"), "b");
		writeFileSync(join(vault, "Ünï", "ç 📝.md"), "c");
		symlinkSync(join(outside, "dir"), join(vault, "link-out"));
		symlinkSync(join(outside, "secret.txt"), join(vault, "file-out.md"));
		symlinkSync(join(vault, "Notes"), join(vault, "link-in"));
		symlinkSync(join(outside, "missing.md"), join(vault, "dangling.md"));
		symlinkSync(vault, vaultLink);
		paths = new VaultPaths(vault);
	});
	afterAll(() => temp.remove());

	const refusal = (input: string): string => {
		try {
			paths.resolve(input);
		} catch (error) {
			expect(error).toBeInstanceOf(VaultPathError);
			return (error as Error).message;
		}
		throw new Error(`expected ${JSON.stringify(input)} to be refused`);
	};

	describe("accepts", () => {
		it("a vault-relative path", () => {
			expect(paths.resolve("Notes/a.md")).toEqual({
				relative: "Notes/a.md",
				absolute: join(vault, "Notes", "a.md"),
			});
		});

		it("relative paths with ./ and inner .. that stay inside", () => {
			expect(paths.resolve("./Notes/../Notes/./a.md").relative).toBe("Notes/a.md");
			expect(paths.resolve("Notes/..").relative).toBe("");
		});

		it("the vault root itself as an empty relative path", () => {
			expect(paths.resolve(".")).toEqual({ relative: "", absolute: vault });
			expect(paths.resolve(vault)).toEqual({ relative: "", absolute: vault });
		});

		it("paths in a vault at the root of the file system (a root that ends in a separator)", () => {
			const atRoot = new VaultPaths("/");
			expect(atRoot.resolve("/no-such-folder-ccb/a.md")).toEqual({
				relative: "no-such-folder-ccb/a.md",
				absolute: "/no-such-folder-ccb/a.md",
			});
			expect(atRoot.resolve("/")).toEqual({ relative: "", absolute: "/" });
		});

		it("an absolute path inside, and a trailing slash on a folder", () => {
			expect(paths.resolve(join(vault, "Notes", "a.md")).relative).toBe("Notes/a.md");
			expect(paths.resolve(`${join(vault, "Notes")}/`).relative).toBe("Notes");
		});

		it("names with spaces and unicode", () => {
			expect(paths.resolve("My Folder/b c.md").relative).toBe("My Folder/b c.md");
			expect(paths.resolve(join(vault, "Ünï", "ç 📝.md")).relative).toBe("Ünï/ç 📝.md");
		});

		it("files that do not exist yet, also in folders that do not exist (resolve is about location)", () => {
			expect(paths.resolve("Notes/new.md").relative).toBe("Notes/new.md");
			expect(paths.resolve("New/Deeper/x.md")).toEqual({
				relative: "New/Deeper/x.md",
				absolute: join(vault, "New", "Deeper", "x.md"),
			});
		});

		it("a symlink that stays inside the vault, keeping the path as given and telling where it really leads", () => {
			expect(paths.resolve("link-in/a.md")).toEqual({
				relative: "link-in/a.md",
				absolute: join(vault, "link-in", "a.md"),
				realRelative: "Notes/a.md",
			});
			expect(paths.resolve("link-in/new.md").realRelative).toBe("Notes/new.md");
			expect(paths.resolve("link-in")).toEqual({
				relative: "link-in",
				absolute: join(vault, "link-in"),
				realRelative: "Notes",
			});
		});

		it("no realRelative when no symlink is involved", () => {
			expect(paths.resolve("Notes/a.md")).not.toHaveProperty("realRelative");
			expect(new VaultPaths(vaultLink).resolve("Notes/a.md")).not.toHaveProperty("realRelative");
		});

		it("a vault given through a symlink: both the link path and the real path are inside, reported under the given root", () => {
			const linked = new VaultPaths(vaultLink);
			expect(linked.root).toBe(vaultLink);
			expect(linked.resolve(join(vaultLink, "Notes", "a.md"))).toEqual({
				relative: "Notes/a.md",
				absolute: join(vaultLink, "Notes", "a.md"),
			});
			expect(linked.resolve(join(vault, "Notes", "a.md"))).toEqual({
				relative: "Notes/a.md",
				absolute: join(vaultLink, "Notes", "a.md"),
			});
			expect(() => linked.resolve(join(outside, "secret.txt"))).toThrow(VaultPathError);
			expect(() => linked.resolve("link-out/x")).toThrow(/symbolic link/);
		});

		it("a properly encoded file:// URI (spaces, unicode, #, %)", () => {
			expect(paths.resolve(pathToFileURL(join(vault, "My Folder", "b c.md")).href).relative).toBe(
				"My Folder/b c.md",
			);
			expect(paths.resolve(pathToFileURL(join(vault, "Ünï", "ç 📝.md")).href).relative).toBe("Ünï/ç 📝.md");
			expect(paths.resolve(pathToFileURL(join(vault, "C# 100%.md")).href).relative).toBe("C# 100%.md");
		});

		it('the CLI\'s raw "file://" + path, with spaces and a literal %', () => {
			expect(paths.resolve(`file://${join(vault, "My Folder", "b c.md")}`).relative).toBe("My Folder/b c.md");
			expect(paths.resolve(`file://${join(vault, "100% done.md")}`).relative).toBe("100% done.md");
		});

		it('a raw "file://" + path whose name holds # or ? (not a fragment or query in a file path)', () => {
			expect(paths.resolve(`file://${join(vault, "C# notes.md")}`).relative).toBe("C# notes.md");
			expect(paths.resolve(`file://${join(vault, "why?.md")}`).relative).toBe("why?.md");
		});

		it("percent signs that do not encode an escape are literal file-name characters", () => {
			expect(paths.resolve("100%25 sure.md").relative).toBe("100%25 sure.md");
			expect(paths.resolve("a%2fb.md").relative).toBe("a%2fb.md");
		});

		it("backslashes on POSIX as ordinary file-name characters: ..\\..\\etc stays one name inside the vault", () => {
			// On POSIX "\" is not a separator, so this is a single (odd) file name in the vault root, not an escape.
			// The adapter still refuses to read it, because the name starts with "." (hidden).
			expect(paths.resolve("..\\..\\etc\\passwd")).toEqual({
				relative: "..\\..\\etc\\passwd",
				absolute: join(vault, "..\\..\\etc\\passwd"),
			});
			expect(paths.resolve("Notes\\a.md").relative).toBe("Notes\\a.md");
		});
	});

	describe("refuses", () => {
		it.each([
			["..", "../secret.txt"],
			["nested ..", "Notes/../../outside/secret.txt"],
			["many ..", "../../../../../../etc/passwd"],
			["the parent folder itself", ".."],
		])("%s escapes (%s)", (_what, input) => {
			expect(refusal(input)).toBe(`Path is outside the vault: ${input}`);
		});

		it("absolute paths elsewhere, including a sibling whose name starts like the vault", () => {
			writeFileSync(`${vault}-sibling.md`, "x");
			expect(refusal("/etc/passwd")).toBe("Path is outside the vault: /etc/passwd");
			expect(refusal(`${vault}-sibling.md`)).toMatch(/^Path is outside the vault/);
			expect(refusal(join(outside, "secret.txt"))).toMatch(/^Path is outside the vault/);
		});

		it("symlinks leading out: a folder, a file below it, a new file below it, and a file symlink", () => {
			for (const input of [
				"link-out",
				"link-out/anything.md",
				"link-out/new/deeper.md",
				"file-out.md",
				join(vault, "file-out.md"),
			]) {
				expect(refusal(input)).toBe(`Path is outside the vault: ${input} (a symbolic link leads out of it)`);
			}
		});

		it("a dangling symlink (its target cannot be checked)", () => {
			expect(refusal("dangling.md")).toMatch(/symbolic link/);
		});

		it("NUL bytes, anywhere and in URIs", () => {
			expect(refusal("Notes/a.md\0.txt")).toBe("Invalid path: it contains a NUL byte");
			expect(refusal("\0")).toBe("Invalid path: it contains a NUL byte");
			expect(refusal(`file://${vault}/a.md%00.txt`)).toMatch(/NUL byte/);
		});

		it("the empty path and whitespace", () => {
			expect(refusal("")).toBe("Invalid path: it is empty");
			expect(refusal("   ")).toBe("Invalid path: it is empty");
		});

		it.each([
			"..%2f..%2fetc%2fpasswd",
			"..%2F..%2Fetc%2Fpasswd",
			"%2e%2e/%2e%2e/etc/passwd",
			"%2E%2E/secret.txt",
			"Notes/%2e%2e/%2e%2e/outside/secret.txt",
			"..%5c..%5cetc%5cpasswd",
			"Notes/a.md%00.txt",
			"%2e%2e",
		])("percent-encoded escapes: %s", (input) => {
			expect(refusal(input)).toMatch(
				/^Path is outside the vault: .* \(it contains an encoded "\.\.", separator or NUL\)$/,
			);
		});

		it("file:// URIs outside the vault, whether encoded or with dot segments", () => {
			expect(refusal(pathToFileURL(join(outside, "secret.txt")).href)).toMatch(/^Path is outside the vault/);
			expect(refusal(`file://${vault}/../outside/secret.txt`)).toMatch(/^Path is outside the vault/);
			expect(refusal(`file://${vault}/%2e%2e/outside/secret.txt`)).toMatch(/^Path is outside the vault/);
			expect(refusal("file:///etc/passwd")).toMatch(/^Path is outside the vault/);
		});

		it("a file URI that is not absolute, or with a remote host", () => {
			expect(refusal("file://relative/path.md")).toMatch(/outside the vault|Invalid file URI/);
			expect(refusal("file:relative.md")).toMatch(/outside the vault|Invalid file URI/);
		});
	});

	it("toAbsolute joins a relative path with the root, and the root for an empty path", () => {
		expect(paths.toAbsolute("")).toBe(vault);
		expect(paths.toAbsolute("My Folder/b c.md")).toBe(join(vault, "My Folder", "b c.md"));
	});

	it("file:// URIs read without the URL parser name the same place as fileURLToPath says", () => {
		const uris = [
			pathToFileURL(join(vault, "My Folder", "b c.md")).href,
			pathToFileURL(join(vault, "Ünï", "ç 📝.md")).href,
			`file://${vault}/Notes/./a.md`,
			`file://${vault}/Notes/%2e%2e/Notes/a.md`,
			`file://${vault}/Notes/%2E/a.md`,
			`file://${vault}//Notes///a.md`,
			`file://${vault}/Notes/a%2Emd`,
			`file://${vault}/Notes/it's%20(1)%20&%20more;=@:+$!~*,.md`,
			`file://${vault}/Notes/100%25.md`,
		];
		for (const uri of uris) expect(paths.resolve(uri)).toEqual(paths.resolve(fileURLToPath(uri)));
	});
});

describe("VaultPaths.resolve confines on disk at every call", () => {
	const temp = makeTempDir("vault-paths-swap");
	const vault = join(temp.path, "vault");
	const outside = join(temp.path, "outside");
	afterAll(() => temp.remove());

	// What was seen of a folder on one call is never trusted on the next: a swap no watcher has reported yet (made
	// synchronously here, between two calls) is found on disk.
	it.each([
		["the note's folder", "SwapA/Inner", "SwapA/Inner"],
		["a folder above it", "SwapB", "SwapB/Inner"],
	])(
		"refuses a read through %s swapped for a link out of the vault right after a resolve",
		(_name, swapped, folder) => {
			mkdirSync(join(vault, ...folder.split("/")), { recursive: true });
			writeFileSync(join(vault, ...folder.split("/"), "n.md"), "inside");
			const paths = new VaultPaths(vault);
			const note = pathToFileURL(join(vault, ...folder.split("/"), "n.md")).href;
			expect(paths.resolve(note).relative).toBe(`${folder}/n.md`);
			// The folder itself moved out (the same folder, inode and all, outside now) and a link to it put where it was.
			const movedTo = join(outside, swapped.replace("/", "-"));
			mkdirSync(outside, { recursive: true });
			renameSync(join(vault, ...swapped.split("/")), movedTo);
			symlinkSync(movedTo, join(vault, ...swapped.split("/")));
			expect(() => paths.resolve(note)).toThrow(
				/^Path is outside the vault: .* \(a symbolic link leads out of it\)$/,
			);
			expect(() => paths.resolve(`${folder}/other.md`)).toThrow(/a symbolic link leads out of it/);
		},
	);

	it("refuses everything once the vault folder itself is swapped for a link to a copy elsewhere", () => {
		const root = join(temp.path, "rooted");
		mkdirSync(join(root, "Notes"), { recursive: true });
		writeFileSync(join(root, "Notes", "a.md"), "a");
		const paths = new VaultPaths(root);
		expect(paths.resolve("Notes/a.md").relative).toBe("Notes/a.md");
		const elsewhere = join(temp.path, "elsewhere");
		mkdirSync(join(elsewhere, "Notes"), { recursive: true });
		writeFileSync(join(elsewhere, "Notes", "a.md"), "not the vault's");
		renameSync(root, join(temp.path, "rooted-old"));
		symlinkSync(elsewhere, root);
		expect(() => paths.resolve("Notes/a.md")).toThrow(/outside the vault/);
	});
});
