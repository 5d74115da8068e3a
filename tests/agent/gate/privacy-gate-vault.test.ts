import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PrivacyGateVault } from "../../../src/agent/gate/privacy-gate-vault";
import { VaultPrivacy } from "../../../src/vault/privacy/vault-privacy";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";

const temp = makeTempDir("privacy-gate-vault");
const root = join(temp.path, "vault");
mkdirSync(join(root, "Private"), { recursive: true });
mkdirSync(join(root, "Public"));
writeFileSync(join(root, "Public", "note.md"), "public\n");
writeFileSync(join(root, "tagged.md"), "#secret\n");
writeFileSync(join(root, "Private", "diary.md"), "diary\n");
writeFileSync(join(temp.path, "outside.md"), "outside\n");
symlinkSync(join(temp.path, "outside.md"), join(root, "link-out.md"));
symlinkSync(join(root, "Private", "diary.md"), join(root, "link-in.md"));
afterAll(() => temp.remove());

function vault() {
	const reads: string[] = [];
	const privacy = new VaultPrivacy({
		paths: new VaultPaths(root),
		rules: () => ({ folders: ["Private"], tags: ["secret"] }),
		tagsOf: (path) => (path === "tagged.md" ? ["secret"] : []),
	});
	const gateVault = new PrivacyGateVault(privacy, {
		readBytes: (absolute) => {
			reads.push(absolute);
			return Promise.resolve(Buffer.from("text", "utf8"));
		},
	});
	return { gateVault, reads };
}

describe("PrivacyGateVault", () => {
	it("judges a path Claude gives through the vault's privacy boundary", async () => {
		const { gateVault } = vault();
		expect(await gateVault.locate(join(root, "Public", "note.md"))).toEqual({
			kind: "visible",
			path: "Public/note.md",
		});
		expect(await gateVault.locate(join(root, "Public"))).toEqual({ kind: "visible", path: "Public" });
		expect(await gateVault.locate(join(root, "Public", "new.md"))).toEqual({
			kind: "visible",
			path: "Public/new.md",
		});
		expect(await gateVault.locate(join(root, "Private", "diary.md"))).toEqual({ kind: "private" });
		expect(await gateVault.locate(join(root, "Private", "new.md"))).toEqual({ kind: "private" });
		expect(await gateVault.locate(join(root, "Private"))).toEqual({ kind: "private" });
		expect(await gateVault.locate(join(root, "tagged.md"))).toEqual({ kind: "private" });
		expect(await gateVault.locate(join(root, ".hidden", "app.json"))).toEqual({ kind: "private" });
		expect(await gateVault.locate(join(root, "link-in.md"))).toEqual({ kind: "private" });
		expect(await gateVault.locate(join(root, "link-out.md"))).toEqual({ kind: "outside" });
		expect(await gateVault.locate(join(temp.path, "outside.md"))).toEqual({ kind: "outside" });
		expect(await gateVault.locate(`${root}/../outside.md`)).toEqual({ kind: "outside" });
	});

	it("reads a visible file's text, and never a private one's", async () => {
		const { gateVault, reads } = vault();
		expect(await gateVault.readFile("Public/note.md")).toEqual({
			bytes: Buffer.from("text", "utf8"),
			text: "text",
		});
		expect(await gateVault.readFile("Private/diary.md")).toBeUndefined();
		expect(reads).toEqual([join(root, "Public", "note.md")]);
	});
});
