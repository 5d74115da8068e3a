import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderVaultIndex } from "../../../src/vault/folder/folder-vault-index";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";
import { excludedFiles } from "../../../src/vault/privacy/excluded-file-rules";
import type { PrivacyRules } from "../../../src/vault/privacy/privacy";
import { VaultPrivacy } from "../../../src/vault/privacy/vault-privacy";
import { VisibleVault } from "../../../src/vault/privacy/visible-vault";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";

const temps: { remove: () => void }[] = [];
const indexes: FolderVaultIndex[] = [];
afterAll(() => {
	indexes.forEach((index) => index.dispose());
	temps.forEach((temp) => temp.remove());
});

/** Private and excluded notes, namesakes of visible ones, a config folder (any dot folder), hidden files, attachments. */
function vault(): string {
	const temp = makeTempDir("visible-alone");
	temps.push(temp);
	const write = (path: string, text: string): void => {
		mkdirSync(join(temp.path, path, ".."), { recursive: true });
		writeFileSync(join(temp.path, path), text);
	};
	write("Public/Note.md", "See [[Diary]] and [[Note]]. #open\n");
	write("Public/Deep/Diary.md", "A public diary.\n");
	write("Public/Links.md", "[[Diary]], [[Private/Diary]], [[excluded]], [[Secret plan]], [[image.png]]\n");
	write("Private/Diary.md", "Private. [[Note]] #secret\n");
	write("Private/Sub/Secret plan.md", "Plans.\n");
	write("Public/excluded.md", "Excluded by Obsidian's list. [[Note]]\n");
	write("Tagged.md", "#secret but in no private folder [[Note]]\n");
	write("Public/image.png", "png");
	write("Private/image.png", "png");
	write(".vault-config/app.json", '{"userIgnoreFilters":["Public/excluded.md","/regex/"]}');
	write(".vault-config/Config note.md", "[[Note]]\n");
	write("Public/.hidden note.md", "[[Note]]\n");
	return temp.path;
}

function index(root: string, withIsNote: boolean): FolderVaultIndex {
	const made = new FolderVaultIndex({ root, watch: false }, libraryYamlCodec);
	// The same index, unable to say whether a path is a note: every question goes through the list of notes.
	if (!withIsNote) Object.defineProperty(made, "isNote", { value: undefined });
	indexes.push(made);
	return made;
}

const PATHS = [
	"Public/Note.md",
	"Public/Deep/Diary.md",
	"Public/Links.md",
	"Private/Diary.md",
	"Private/Sub/Secret plan.md",
	"Public/excluded.md",
	"Tagged.md",
	"Public/image.png",
	"Private/image.png",
	"Private",
	"Public",
	".vault-config/app.json",
	".vault-config/Config note.md",
	"Public/.hidden note.md",
	"Missing.md",
	"Private/Missing.md",
];

const ARGUMENTS = [
	"Public/Note.md",
	"Public/Note",
	"[[Note]]",
	"Diary",
	"[[Diary]]",
	"Private/Diary",
	"Private/Diary.md",
	"Secret plan",
	"excluded",
	"Public/excluded.md",
	"Tagged",
	".vault-config/Config note.md",
	"Public/.hidden note.md",
	"Public/image.png",
	"Missing",
];

/** Everything a tool can learn about paths from a visible vault: one line per question. */
async function answers(visible: VisibleVault): Promise<string[]> {
	await visible.refresh();
	const lines: string[] = [];
	for (const path of PATHS) lines.push(`visible ${path}: ${visible.isVisible(path)}`);
	for (const argument of ARGUMENTS) {
		let located: string;
		try {
			located = visible.locateNote(argument);
		} catch (error) {
			located = `error ${(error as Error).message}`;
		}
		lines.push(`locate ${argument}: ${located}`);
	}
	for (const path of PATHS) {
		const backlinks = (await visible.backlinks(path)).map(
			(backlink) => `${backlink.source}>${backlink.link.target}`,
		);
		lines.push(`backlinks ${path}: ${backlinks.join(", ")}`);
		lines.push(`links ${path}: ${JSON.stringify(visible.facts(path)?.links.map((link) => link.target))}`);
		lines.push(`tags ${path}: ${JSON.stringify(visible.tagsOf(path)?.map((tag) => tag.tag))}`);
	}
	lines.push(`notes: ${visible.notePaths().join(", ")}`);
	return lines;
}

function privacy(root: string, rules: PrivacyRules, tagsOf = (_path: string): readonly string[] => []): VaultPrivacy {
	return new VaultPrivacy({ paths: new VaultPaths(root), rules: () => rules, tagsOf });
}

describe("VisibleVault decides one path alone when the index can say what is a note and no rule needs tags", () => {
	const excluded = excludedFiles(["Public/excluded.md", "/regex/"]).paths;

	it("answers every question as when it decides every note first (private folders, excluded files, hidden files, the config folder)", async () => {
		const root = vault();
		const rules: PrivacyRules = { folders: ["Private", ...excluded], tags: [] };
		const alone = await answers(privacy(root, rules).visibleVault(index(root, true)));
		const listed = await answers(privacy(root, rules).visibleVault(index(root, false)));
		expect(alone).toEqual(listed);
		// What they agree on: the private, excluded and hidden notes are not there; a link to a private namesake leads
		// to the visible note of that name.
		expect(alone).toContain("visible Private/Diary.md: false");
		expect(alone).toContain("visible Public/excluded.md: false");
		expect(alone).toContain("visible .vault-config/Config note.md: false");
		expect(alone).toContain("visible Private/image.png: false");
		expect(alone).toContain("visible Public/image.png: true");
		expect(alone).toContain("locate Diary: Public/Deep/Diary.md");
		expect(alone.find((line) => line.startsWith("backlinks Public/Deep/Diary.md:"))).toContain(
			"Public/Note.md>Public/Deep/Diary.md",
		);
		expect(alone.find((line) => line.startsWith("notes:"))).toBe(
			"notes: Public/Deep/Diary.md, Public/Links.md, Public/Note.md, Tagged.md",
		);
	});

	it("answers the same with no rule at all (the config folder and hidden files still hidden)", async () => {
		const root = vault();
		const rules: PrivacyRules = { folders: [], tags: [] };
		const alone = await answers(privacy(root, rules).visibleVault(index(root, true)));
		expect(alone).toEqual(await answers(privacy(root, rules).visibleVault(index(root, false))));
		expect(alone).toContain("visible .vault-config/Config note.md: false");
		expect(alone).toContain("visible Private/Diary.md: true");
	});

	it("decides from the list of every note while a tag rule is set (a note's tags make it private)", async () => {
		const root = vault();
		const rules: PrivacyRules = { folders: ["Private"], tags: ["secret"] };
		const tagsOf = (path: string): readonly string[] => (path === "Tagged.md" ? ["#secret"] : []);
		const alone = await answers(privacy(root, rules, tagsOf).visibleVault(index(root, true)));
		expect(alone).toEqual(await answers(privacy(root, rules, tagsOf).visibleVault(index(root, false))));
		expect(alone).toContain("visible Tagged.md: false");
	});

	it("asks the rules about that path alone, without listing the vault's notes", async () => {
		const root = vault();
		const folderIndex = index(root, true);
		const asked: string[] = [];
		const key = {};
		const visible = new VisibleVault({
			index: folderIndex,
			paths: new VaultPaths(root),
			isPrivate: (path) => {
				asked.push(path);
				return path.startsWith("Private/");
			},
			decisionsKey: () => key,
		});
		await visible.refresh();
		const listed = jest.spyOn(folderIndex, "notePaths");
		expect(visible.isVisible("Public/Note.md")).toBe(true);
		expect(visible.isVisible("Private/Diary.md")).toBe(false);
		expect(visible.locateNote("Public/Note")).toBe("Public/Note.md");
		expect(asked).toEqual(["Public/Note.md", "Private/Diary.md", "Public/Note.md"]);
		expect(listed).not.toHaveBeenCalled();
	});
});
