import { linkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RefusedPathError, type VaultFileEntry, type VaultFileBytes } from "../../../src/vault/notes/vault-files";
import { HardLinkWarnings } from "../../../src/vault/privacy/hard-link-warnings";
import { PrivacyFilter } from "../../../src/vault/privacy/privacy";
import { PrivateFiles } from "../../../src/vault/privacy/private-files";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";

/** Files in memory; counts every question asked of it. */
class MemoryFiles implements VaultFileBytes {
	readonly asked: string[] = [];
	constructor(private readonly files: Record<string, string>) {}
	list(): VaultFileEntry[] {
		return Object.entries(this.files).map(([path, text]) => ({ path, size: text.length }));
	}
	stat(relativePath: string): Promise<{ size: number } | undefined> {
		this.asked.push(`stat ${relativePath}`);
		const text = this.files[relativePath];
		return Promise.resolve(text === undefined ? undefined : { size: text.length });
	}
	readBytes(relativePath: string): Promise<Uint8Array> {
		this.asked.push(`read ${relativePath}`);
		const text = this.files[relativePath];
		return text === undefined
			? Promise.reject(new RefusedPathError(`Not found: ${relativePath}`))
			: Promise.resolve(new TextEncoder().encode(text));
	}
}

const temp = makeTempDir("private-files");
writeFileSync(join(temp.path, "public.md"), "public");
writeFileSync(join(temp.path, "linked.md"), "shared text");
linkSync(join(temp.path, "linked.md"), join(temp.path, "second-name.md"));
afterAll(() => temp.remove());

function setup(
	locate: (path: string) => { relative: string; realRelative?: string } | undefined = (relative) => ({ relative }),
) {
	const files = new MemoryFiles({
		"public.md": "public",
		"Private/secret.md": "secret",
		"link.md": "via link",
		"linked.md": "shared text",
	});
	const paths = new VaultPaths(temp.path);
	const privacy = new PrivacyFilter(
		() => ({ folders: ["Private"], tags: [] }),
		() => [],
	);
	const warnings: string[] = [];
	const hardLinks = new HardLinkWarnings(paths, (message) => warnings.push(message));
	const located = (relative: string) => {
		const location = locate(relative);
		return location && { ...location, absolute: join(temp.path, relative) };
	};
	return { files, warnings, privateFiles: new PrivateFiles(files, privacy, located, hardLinks) };
}

describe("PrivateFiles", () => {
	it("leaves private files out of the listing", async () => {
		const { privateFiles } = setup();
		expect((await privateFiles.list()).map((entry) => entry.path).sort()).toEqual([
			"link.md",
			"linked.md",
			"public.md",
		]);
	});

	it("answers stat of a private file as of a missing one, after asking the port all the same", async () => {
		const { files, privateFiles } = setup();
		expect(await privateFiles.stat("Private/secret.md")).toBeUndefined();
		expect(await privateFiles.stat("Private/missing.md")).toBeUndefined();
		expect(await privateFiles.stat("public.md")).toEqual({ size: 6 });
		expect(files.asked).toEqual(["stat Private/secret.md", "stat Private/missing.md", "stat public.md"]);
	});

	it("refuses to read a private file with a missing file's words, without reading it", async () => {
		const { files, privateFiles } = setup();
		const privateRead = privateFiles.readBytes("Private/secret.md").catch((error: unknown) => error);
		const missingRead = privateFiles.readBytes("missing.md").catch((error: unknown) => error);
		const [privateError, missingError] = await Promise.all([privateRead, missingRead]);
		expect(privateError).toBeInstanceOf(RefusedPathError);
		expect(privateError).toEqual(new RefusedPathError("Not found: Private/secret.md"));
		expect(missingError).toEqual(new RefusedPathError("Not found: missing.md"));
		expect(files.asked).not.toContain("read Private/secret.md");
	});

	it("judges a symbolic link by where it leads", async () => {
		const { privateFiles } = setup((relative) =>
			relative === "link.md" ? { relative, realRelative: "Private/secret.md" } : { relative },
		);
		expect(await privateFiles.stat("link.md")).toBeUndefined();
		await expect(privateFiles.readBytes("link.md")).rejects.toThrow("Not found: link.md");
	});

	it("reads a public file and warns once when it has more than one hard link", async () => {
		const { privateFiles, warnings } = setup();
		expect(new TextDecoder().decode(await privateFiles.readBytes("public.md"))).toBe("public");
		expect(warnings).toEqual([]);
		await privateFiles.readBytes("linked.md");
		await privateFiles.readBytes("linked.md");
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/^Served linked\.md, a file with 2 hard links/);
	});
});
