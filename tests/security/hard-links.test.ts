import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VaultPrivacy } from "../../src/vault/privacy/vault-privacy";
import { VaultPaths } from "../../src/vault/vault-paths";
import { FolderVault } from "../../src/vault/folder/folder-vault";
import { makeTempDir } from "../helpers/temp-dir";

/**
 * Issue 11, finding 9 (hard links): a hard link to a private note placed outside the private folder is the same
 * file under a public name. Its other names cannot be found cheaply, so the choice (SECURITY.md) is to serve it
 * under the public name and warn, once per file, whenever a served file has more than one link.
 */
describe("a file with more than one hard link", () => {
	const temp = makeTempDir("hard-links");
	const vault = join(temp.path, "vault");
	let warnings: string[];
	let boundary: VaultPrivacy;
	let paths: VaultPaths;

	beforeAll(() => {
		mkdirSync(join(vault, "Secret"), { recursive: true });
		mkdirSync(join(vault, "Public"));
		writeFileSync(join(vault, "Secret", "diary.md"), "HARD-LINKED-SECRET\n");
		linkSync(join(vault, "Secret", "diary.md"), join(vault, "Public", "innocent.md"));
		writeFileSync(join(vault, "Public", "plain.md"), "plain\n");
	});
	afterAll(() => temp.remove());
	beforeEach(() => {
		warnings = [];
		paths = new VaultPaths(vault);
		boundary = new VaultPrivacy({
			paths,
			rules: () => ({ folders: ["Secret"], tags: [] }),
			tagsOf: () => [],
			warn: (message) => warnings.push(message),
		});
	});

	it("is served under its public name with one warning that names it, through files/read's port and openFile's reader", async () => {
		const files = boundary.files(new FolderVault({ root: paths.root, watch: false }).files);
		expect(Buffer.from(await files.readBytes("Public/innocent.md")).toString("utf8")).toBe("HARD-LINKED-SECRET\n");
		expect(await boundary.textReader(() => Promise.resolve("text"))(join(vault, "Public", "innocent.md"))).toBe(
			"text",
		);
		expect(warnings).toEqual([
			"Served Public/innocent.md, a file with 2 hard links: if another of its names is in a private folder, its text is readable under this one (privacy rules see names, not files)",
		]);
	});

	it("a file with one link is served without a warning; the private name stays refused", async () => {
		const files = boundary.files(new FolderVault({ root: paths.root, watch: false }).files);
		await files.readBytes("Public/plain.md");
		await expect(files.readBytes("Secret/diary.md")).rejects.toThrow("Not found: Secret/diary.md");
		expect(warnings).toEqual([]);
	});
});
