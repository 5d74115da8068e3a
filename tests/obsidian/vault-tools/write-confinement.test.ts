import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ObsidianVaultIndex } from "../../../src/obsidian/vault-tools/obsidian-vault-index";
import { VisibleVault } from "../../../src/vault/privacy/visible-vault";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { createVaultTools } from "../../../src/vault-tools/create-vault-tools";
import type { EditReview } from "../../../src/review/edit-proposal";
import type { ToolDefinition } from "../../../src/protocol/mcp-types";
import type { App } from "../../__mocks__/obsidian";
import { makeTempDir } from "../../helpers/temp-dir";
import { createIndexedApp, vaultIndexPorts } from "../harness/indexed-app";
import { FIXTURE_TIMEOUT_MS } from "../../helpers/fixture-timeout";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

/**
 * In Obsidian the vault tools write through `app.vault`, whose desktop adapter follows symbolic links (Obsidian
 * supports linked folders that lead out of the vault). So confinement is checked again right before each call
 * into `app.vault`: a folder replaced by a link to a place outside the vault (or to a hidden or private one)
 * while the review was open makes the write a tool error, and `app.vault` is never asked to write. (The fake
 * vault keeps files in memory; on the desktop the same call would have written outside.)
 */
const NOTES: Record<string, string> = {
	"Drop/Keep.md": "# Keep\n",
	"Notes/A.md": "# A\n",
	"Notes/B.md": "See [[A]].\n",
	"Secret/diary.md": "Diary\n",
};

describe("the vault tools over Obsidian's index re-check confinement right before writing", () => {
	let temp: { path: string; remove: () => void };
	let root: string;
	let outside: string;
	let app: App;
	let index: ObsidianVaultIndex;
	let tools: Map<string, ToolDefinition>;
	let duringReview: () => void;
	let moved = 0;

	const swapForLink = (folder: string, target: string): void => {
		renameSync(join(root, folder), join(temp.path, `moved-${++moved}`));
		symlinkSync(target, join(root, folder));
	};
	const call = async (name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> => {
		const result = await tools
			.get(name)
			?.call(args as never, { sessionId: 1, signal: new AbortController().signal });
		return { isError: result?.isError === true, text: result?.content.map((block) => block.text).join("\n") ?? "" };
	};

	beforeEach(async () => {
		temp = makeTempDir("obsidian-write-confinement");
		root = join(temp.path, "vault");
		outside = join(temp.path, "outside");
		mkdirSync(outside);
		// The same notes on disk (what VaultPaths resolves) and in the fake vault (what app.vault writes).
		for (const [path, text] of Object.entries(NOTES)) {
			mkdirSync(dirname(join(root, path)), { recursive: true });
			writeFileSync(join(root, path), text);
		}
		app = await createIndexedApp(NOTES, root);
		index = new ObsidianVaultIndex(vaultIndexPorts(app));
		index.load();
		const vault = new VisibleVault({
			index,
			paths: new VaultPaths(root),
			isPrivate: (path) => path.startsWith("Secret/"),
		});
		duringReview = () => undefined;
		const review: EditReview = {
			propose: (write) => {
				duringReview();
				return Promise.resolve({ kind: "accepted", text: write.after, edited: false });
			},
		};
		tools = new Map(
			createVaultTools({ yaml: libraryYamlCodec, vault, review: () => review }).map((tool) => [tool.name, tool]),
		);
	}, FIXTURE_TIMEOUT_MS);
	afterEach(() => {
		index?.unload();
		temp?.remove();
	});

	it("create_note: Drop replaced by a link out during the review; app.vault.create is never called", async () => {
		duringReview = () => swapForLink("Drop", outside);
		const answer = await call("create_note", { path: "Drop/evil.md", content: "payload" });
		expect(app.vault.contents.has("Drop/evil.md")).toBe(false);
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/^create_note: Refused: Drop\/evil\.md .*out of the vault.*nothing was written/i);
		expect(readdirSync(outside)).toEqual([]);
	});

	it("edit_note: the note's folder replaced by a link to a private folder during the review; the note is not written", async () => {
		duringReview = () => swapForLink("Notes", join(root, "Secret"));
		const answer = await call("edit_note", {
			path: "Notes/A.md",
			edits: [{ target: "A", op: "append", content: "payload" }],
		});
		expect(app.vault.contents.get("Notes/A.md")).toBe("# A\n");
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/^edit_note: Refused: Notes\/A\.md .*private or hidden.*nothing was written/i);
	});

	it("create_note still writes when nothing changed on the way", async () => {
		const answer = await call("create_note", { path: "Drop/fine.md", content: "# Fine\n" });
		expect(answer.isError).toBe(false);
		expect(app.vault.contents.get("Drop/fine.md")).toBe("# Fine\n");
	});
});
