import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderVaultIndex } from "../../src/vault/folder/folder-vault-index";
import type { RenameReport, VaultIndex } from "../../src/vault/notes/vault-index";
import { VisibleVault } from "../../src/vault/privacy/visible-vault";
import { VaultPaths } from "../../src/vault/vault-paths";
import { createVaultTools } from "../../src/vault-tools/create-vault-tools";
import type { EditReview } from "../../src/review/edit-proposal";
import { makeTempDir } from "../helpers/temp-dir";
import { makeVault, type VaultFixture } from "./vault-fixture";
import { libraryYamlCodec } from "../../src/vault/folder/yaml-library-codec";

/**
 * Finding 6 of issue 15: a folder of the vault is replaced by a symbolic link to a folder outside while a write
 * waits (for the user's review, or between the tool's last check and the write). The write is refused with a
 * clear tool error and nothing is written anywhere.
 */
describe("a folder swapped for a link out of the vault while a vault-tool write waits", () => {
	/** Holds the folder outside the vault and the vault folders the attacker moved away. */
	let scratch: { path: string; remove: () => void };
	let outside: string;
	let moved = 0;
	let vault: VaultFixture | undefined;
	/** What the review does while it is open (the attacker's move), before the user accepts. */
	let duringReview: () => void = () => undefined;
	const review: EditReview = {
		propose: (write) => {
			duringReview();
			return Promise.resolve({ kind: "accepted", text: write.after, edited: false });
		},
	};

	const swapForLink = (root: string, folder: string): void => {
		renameSync(join(root, folder), join(scratch.path, `moved-${++moved}`));
		symlinkSync(outside, join(root, folder));
	};

	beforeEach(() => {
		scratch = makeTempDir("write-race");
		outside = join(scratch.path, "outside");
		mkdirSync(outside);
	});
	afterEach(() => {
		vault?.dispose();
		vault = undefined;
		scratch?.remove();
	});

	it("create_note: Drop swapped during the review; Accept writes nothing, inside or out", async () => {
		const fixture = makeVault({ "Drop/Keep.md": "# Keep\n" }, { review: () => review });
		vault = fixture;
		duringReview = () => swapForLink(fixture.root, "Drop");
		const answer = await fixture.call("create_note", { path: "Drop/evil.md", content: "payload" });
		expect(readdirSync(outside)).toEqual([]);
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/^create_note: .*Drop.*nothing was written/i);
	});

	it("edit_note: the note's folder swapped for a link to a byte-identical copy; the copy outside stays as it was", async () => {
		const fixture = makeVault({ "Notes/A.md": "# A\n" }, { review: () => review });
		vault = fixture;
		writeFileSync(join(outside, "A.md"), "# A\n");
		duringReview = () => swapForLink(fixture.root, "Notes");
		const answer = await fixture.call("edit_note", {
			path: "Notes/A.md",
			edits: [{ target: "A", op: "append", content: "payload" }],
		});
		expect(readdirSync(outside)).toEqual(["A.md"]);
		expect(readFileSync(join(outside, "A.md"), "utf8")).toBe("# A\n");
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/^edit_note: .*Notes.*nothing was written/i);
	});

	it("move_note: the destination folder swapped right after the tool's last check; the note stays in the vault", async () => {
		const temp = makeTempDir("write-race-move");
		const root = temp.path;
		mkdirSync(join(root, "Notes"));
		mkdirSync(join(root, "Drop"));
		writeFileSync(join(root, "Notes/A.md"), "# A\n");
		writeFileSync(join(root, "Notes/B.md"), "See [[A]].\n");
		const folderIndex = new FolderVaultIndex({ root, watch: false });
		// The attacker wins the race: the folder changes after move_note located its destination, before the move.
		const racing: VaultIndex = Object.assign(Object.create(folderIndex) as VaultIndex, {
			renameNote: (from: string, to: string): Promise<RenameReport> => {
				swapForLink(root, "Drop");
				return folderIndex.renameNote(from, to);
			},
		});
		const visible = new VisibleVault({ index: racing, paths: new VaultPaths(root), isPrivate: () => false });
		const move = createVaultTools({ yaml: libraryYamlCodec, vault: visible }).find(
			(tool) => tool.name === "move_note",
		);
		try {
			const result = await move?.call(
				{ path: "Notes/A.md", to: "Drop/A.md" },
				{ sessionId: 1, signal: new AbortController().signal },
			);
			expect(readdirSync(outside)).toEqual([]);
			expect(result?.isError).toBe(true);
			expect(result?.content[0]?.text).toMatch(/^move_note: .*Drop.*nothing was written/i);
			expect(readFileSync(join(root, "Notes/A.md"), "utf8")).toBe("# A\n");
			expect(readFileSync(join(root, "Notes/B.md"), "utf8")).toBe("See [[A]].\n");
		} finally {
			folderIndex.dispose();
			temp.remove();
		}
	});
});
