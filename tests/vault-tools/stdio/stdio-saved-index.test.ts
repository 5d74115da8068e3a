import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { WARM_UP_DONE } from "../../../src/vault-tools/stdio/folder-reading";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";
import { startStdioServer } from "./stdio-server-process";

const NOTES: Record<string, string> = {
	"Hub.md": "# Hub\n",
	"Notes/Alpha.md": "---\ntags: [alpha]\n---\n# Alpha\n\nLinks to [[Hub]].\n",
	"Notes/Beta.md": "# Beta\n\nAlso [[Hub]]. #beta\n",
	"Private/Secret.md": "# Secret\n\n[[Hub]] #secret\n",
	".config-obsidian/plugins/claude-code-bridge/data.json": JSON.stringify({
		enabled: true,
		privateFolders: ["Private"],
	}),
};

/**
 * Issue 31: a later session on a vault takes up the folder index the last one saved (in the user's cache folder),
 * checking each note's stamp instead of reading every note; a note changed while no session ran is read again, and
 * privacy applies as ever.
 */
describe("claude-code-bridge mcp --vault: a later session takes up the index the last one saved", () => {
	const temp = makeTempDir("stdio-saved-index");
	const vault = join(temp.path, "vault");
	const home = join(temp.path, "home");

	beforeAll(() => {
		mkdirSync(home);
		for (const [path, text] of Object.entries(NOTES)) {
			mkdirSync(dirname(join(vault, path)), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
	});
	afterAll(() => temp.remove());

	it("saves after its warm-up, 0600 in the cache folder; the next session answers from it and from what changed", async () => {
		const first = await startStdioServer(vault, home);
		try {
			await first.call("tags", {});
			await pollUntil(() => (first.stderr().includes(WARM_UP_DONE) ? true : undefined), "the warm-up", {
				timeoutMs: 20_000,
			});
		} finally {
			await first.close();
		}
		const folder = join(home, ".cache", "claude-code-bridge", "folder-index");
		const files = readdirSync(folder);
		expect(files).toHaveLength(1);
		expect(statSync(join(folder, files[0] ?? "")).mode & 0o777).toBe(0o600);

		// Changed while no session ran: one link fewer, another tag.
		writeFileSync(join(vault, "Notes/Beta.md"), "# Beta\n\nNo link now. #gamma\n");
		const later = await startStdioServer(vault, home);
		try {
			const tags = (await later.call("tags", {})).text;
			await pollUntil(
				() =>
					/Took up the folder index the last session saved: 4 notes/.test(later.stderr()) ? true : undefined,
				"the later session to take up the saved index",
				{ timeoutMs: 20_000 },
			);
			expect(tags).toContain("#alpha 1");
			expect(tags).toContain("#gamma 1");
			expect(tags).not.toContain("#beta");
			expect(tags).not.toContain("#secret");
			const links = (await later.call("links", { path: "Hub.md", direction: "in" })).text;
			expect(links).toContain("1 backlinks from 1 notes");
			expect(links).toContain("Notes/Alpha.md");
			expect(links).not.toContain("Private");
		} finally {
			await later.close();
		}
	});
});
