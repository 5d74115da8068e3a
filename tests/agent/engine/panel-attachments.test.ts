import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_FOLDER_NOTES, PanelAttachments } from "../../../src/agent/engine/panel-attachments";
import { readTextIfExists } from "../../../src/shared/read-text-if-exists";
import { VaultPrivacy } from "../../../src/vault/privacy/vault-privacy";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { MAX_IMAGE_BYTES } from "../../../src/agent/engine/image-content";
import { TINY_PNG } from "../../helpers/image-bytes";
import { makeTempDir } from "../../helpers/temp-dir";

describe("PanelAttachments", () => {
	const temp = makeTempDir("panel-attachments");
	const vault = join(temp.path, "vault");
	const write = (relative: string, text: string | Buffer): void => {
		mkdirSync(join(vault, relative, ".."), { recursive: true });
		writeFileSync(join(vault, relative), text);
	};
	let attachments: PanelAttachments;
	let privacy: VaultPrivacy;

	beforeAll(() => {
		write("Notes/Open.md", "# Open\none\ntwo\n");
		write("Notes/Diary.md", "#private\nDIARY TEXT\n");
		write("Notes/Sub/Deeper.md", "deeper\n");
		write("Notes/Pic.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
		write('Notes/Q" @Secret/Plan.md ".md', "quoted name\n");
		write("Secret/Plan.md", "SECRET PLAN\n");
		write("Secret/Inner/Deep.md", "SECRET DEEP\n");
		write(".config/data.json", '{"key":"k"}');
		write("Big.md", "x".repeat(5 * 1024 * 1024));
		write(join("..", "outside.md"), "OUTSIDE\n");
		symlinkSync(join(vault, "Secret", "Plan.md"), join(vault, "Notes", "Link.md"));
		symlinkSync(join(vault, "Secret", "Inner"), join(vault, "Notes", "Shortcut"));
		symlinkSync(join(vault, "Notes", "Open.md"), join(vault, "Notes", "Alias.md"));
		symlinkSync(join(temp.path, "outside.md"), join(vault, "Notes", "Out.md"));
		const tags: Record<string, string[]> = { "Notes/Diary.md": ["#private"] };
		privacy = new VaultPrivacy({
			paths: new VaultPaths(vault),
			rules: () => ({ folders: ["Secret"], tags: ["private"] }),
			tagsOf: (path) => tags[path] ?? [],
		});
		attachments = new PanelAttachments(privacy, { readText: readTextIfExists });
	});
	afterAll(() => temp.remove());

	it("reads a public note through the boundary, with the selection's lines and its vault path", async () => {
		await expect(attachments.resolve({ path: "Notes/Open.md", lines: { from: 2, to: 3 } })).resolves.toEqual({
			kind: "note",
			path: "Notes/Open.md",
			lines: { from: 2, to: 3 },
			text: "# Open\none\ntwo\n",
		});
		await expect(attachments.resolve({ path: 'Notes/Q" @Secret/Plan.md ".md' })).resolves.toEqual({
			kind: "note",
			path: 'Notes/Q" @Secret/Plan.md ".md',
			text: "quoted name\n",
		});
		await expect(attachments.resolve({ path: "Notes/Alias.md" })).resolves.toMatchObject({
			kind: "note",
			text: "# Open\none\ntwo\n",
		});
	});

	it("hands over nothing of a note private by folder or tag, a hidden file, a link into a private folder or out of the vault, or a missing note", async () => {
		for (const path of [
			"Secret/Plan.md",
			"Notes/Diary.md",
			".config/data.json",
			"Notes/Link.md",
			"Notes/Out.md",
			"Notes/Shortcut/Deep.md",
			"../outside.md",
			"/etc/passwd",
			"Notes/None.md",
			"Secret",
			"Notes/Shortcut",
		]) {
			await expect(attachments.resolve({ path }).then((resolved) => [path, resolved])).resolves.toEqual([
				path,
				undefined,
			]);
		}
	});

	it("lists a folder's visible notes only: no tag-private note, no link into a private folder, no linked folder", async () => {
		const folder = await attachments.resolve({ path: "Notes" });
		expect(folder).toEqual({
			kind: "folder",
			path: "Notes",
			complete: true,
			notes: [
				"Notes/Alias.md",
				"Notes/Open.md",
				"Notes/Pic.png",
				'Notes/Q" @Secret/Plan.md ".md',
				"Notes/Sub/Deeper.md",
			],
		});
	});

	it("names a file that is not text or is too large instead of reading it into the prompt", async () => {
		await expect(attachments.resolve({ path: "Notes/Pic.png" })).resolves.toEqual({
			kind: "file",
			path: "Notes/Pic.png",
			reason: "not-text",
		});
		await expect(attachments.resolve({ path: "Big.md" })).resolves.toEqual({
			kind: "file",
			path: "Big.md",
			reason: "too-large",
		});
	});

	it("lists at most MAX_FOLDER_NOTES notes of a large folder and says there are more", async () => {
		for (let index = 0; index <= MAX_FOLDER_NOTES; index++) write(`Many/${String(index).padStart(4, "0")}.md`, "x");
		const folder = await attachments.resolve({ path: "Many" });
		expect(folder).toMatchObject({ kind: "folder", complete: false });
		expect(folder?.kind === "folder" ? folder.notes.length : 0).toBe(MAX_FOLDER_NOTES);
	});

	it("reads a public image's bytes through the boundary; a private one is refused without a read, and so is one too large or no image", async () => {
		write("Trips/photo.png", Buffer.from(TINY_PNG));
		write("Secret/face.png", Buffer.from(TINY_PNG));
		write("Trips/fake.png", "not an image");
		const big = Buffer.alloc(MAX_IMAGE_BYTES + 1);
		big.set(TINY_PNG);
		write("Trips/huge.png", big);
		symlinkSync(join(vault, "Secret", "face.png"), join(vault, "Trips", "link.png"));
		const read: string[] = [];
		const images = new PanelAttachments(privacy, {
			readText: readTextIfExists,
			readBytes: (absolutePath) => {
				read.push(absolutePath);
				return Promise.resolve(new Uint8Array(readFileSync(absolutePath)));
			},
		});
		await expect(images.resolveImage("Trips/photo.png")).resolves.toEqual({ kind: "image", bytes: TINY_PNG });
		for (const path of ["Secret/face.png", "Trips/link.png", ".config/data.json"])
			await expect(images.resolveImage(path)).resolves.toEqual({ kind: "refused", refusal: "private" });
		await expect(images.resolveImage("Trips/missing.png")).resolves.toEqual({
			kind: "refused",
			refusal: "missing",
		});
		await expect(images.resolveImage("../outside.md")).resolves.toEqual({ kind: "refused", refusal: "missing" });
		await expect(images.resolveImage("Trips/huge.png")).resolves.toEqual({
			kind: "refused",
			refusal: "too-large",
			size: MAX_IMAGE_BYTES + 1,
		});
		await expect(images.resolveImage("Trips/fake.png")).resolves.toEqual({
			kind: "refused",
			refusal: "not-image",
			size: 12,
		});
		expect(read).toEqual([join(vault, "Trips/photo.png"), join(vault, "Trips/fake.png")]);
	});
});
