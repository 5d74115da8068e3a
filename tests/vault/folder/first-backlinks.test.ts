import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import { makeNoteFolder } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

const NOTES: Record<string, string> = {
	"Hub/Popular Note.md": "The hub. [[#Part]]\n",
	"a.md": "See [[Popular Note]] and [[b]].\n",
	"b.md": "[x](Popular%20Note.md) [y](%50opular%20N%6Fte)\n",
	"c.md": "Nothing here but [[a]] and 100% prose.\n",
	"d.md": "Café: [[popular note|the hub]]\n",
	"e.md": "```\n[[Popular Note]]\n```\n",
	"Hub/Popular Note/x/f.md": "Up: [[../]]\n",
	"g.md": '---\nrelated: "[[Hub/Popular Note]]"\n---\nBody.\n',
};

function folder(notes: Record<string, string>) {
	const made = makeNoteFolder("first-backlinks", notes);
	temps.push(made);
	return made;
}

async function sources(index: FolderVaultIndex, path: string): Promise<string[]> {
	await index.refresh();
	return (await index.backlinks(path)).map((backlink) => `${backlink.source}:${backlink.link.line}`);
}

describe("a vault's first backlinks question (notes unread)", () => {
	it("finds what the reverse index over every note finds", async () => {
		const { root } = folder(NOTES);
		const first = new FolderVaultIndex({ root, watch: false });
		const warmed = new FolderVaultIndex({ root, watch: false });
		await warmed.refresh();
		for (const path of warmed.notePaths()) warmed.warmNote(path);
		try {
			for (const target of ["Hub/Popular Note.md", "a.md", "b.md", "Hub/Popular Note/x/f.md"]) {
				const expected = await sources(warmed, target);
				expect(await sources(first, target)).toEqual(expected);
			}
			expect(await sources(first, "Hub/Popular Note.md")).toEqual([
				"Hub/Popular Note.md:0",
				"Hub/Popular Note/x/f.md:0",
				"a.md:0",
				"b.md:0",
				"b.md:0",
				"d.md:0",
				"g.md:1",
			]);
		} finally {
			first.dispose();
			warmed.dispose();
		}
	});

	it("looks again once a note changed", async () => {
		const { root, write } = folder(NOTES);
		const index = new FolderVaultIndex({ root, watch: false });
		try {
			expect(await sources(index, "a.md")).toEqual(["c.md:0"]);
			write("c.md", "No link any more, but a longer text.\n");
			write("e.md", "Now [[a]].\n");
			expect(await sources(index, "a.md")).toEqual(["e.md:0"]);
		} finally {
			index.dispose();
		}
	});

	it("watching, finds a link written into a note the pass only glanced at (its answer is kept per watcher count)", async () => {
		const plain = Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`n${n}.md`, "Plain prose.\n"]));
		const { root, write } = folder({ ...plain, "Target.md": "T", "linking.md": "[[Target]]\n" });
		const index = new FolderVaultIndex({ root, watch: true });
		try {
			expect(await sources(index, "Target.md")).toEqual(["linking.md:0"]);
			// n3.md was no candidate: no stamp was taken of it, so only the watcher tells it changed.
			write("n3.md", "Now [[target]].\n");
			await waitUntil(
				async () => (await sources(index, "Target.md")).join() === "linking.md:0,n3.md:0",
				"the link written into n3.md to be found",
				{ timeoutMs: 20_000 },
			);
		} finally {
			index.dispose();
		}
	});
});
