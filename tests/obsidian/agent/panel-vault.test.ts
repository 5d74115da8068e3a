import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_IMAGE_BYTES } from "../../../src/agent/engine/image-content";
import { ObsidianPanelVault } from "../../../src/obsidian/agent/panel-vault";
import { VaultPrivacy } from "../../../src/vault/privacy/vault-privacy";
import { VaultPaths } from "../../../src/vault/vault-paths";
import { makeTempDir } from "../../helpers/temp-dir";
import { createIndexedApp } from "../harness/indexed-app";

async function vault(privacyOn = true) {
	const app = await createIndexedApp({
		"A/One.md": "x",
		"A/B/Two.md": "x",
		"Secret/Three.md": "x",
		"A/Tagged.md": "#private",
	});
	return new ObsidianPanelVault(app as never, () =>
		privacyOn
			? {
					hidesPath: (path) => path.startsWith("Secret/") || path === "A/Tagged.md",
					hidesFolder: (path) => path === "Secret" || path.startsWith("Secret/"),
				}
			: undefined,
	);
}

describe("ObsidianPanelVault", () => {
	it("offers public notes, then the folders that hold them, never a private note or folder", async () => {
		expect((await vault()).mentionCandidates()).toEqual([
			{ path: "A/B/Two.md", kind: "note" },
			{ path: "A/One.md", kind: "note" },
			{ path: "A", kind: "folder" },
			{ path: "A/B", kind: "folder" },
		]);
	});

	it("offers and attaches nothing while no privacy boundary can judge (the bridge is off)", async () => {
		const panelVault = await vault(false);
		expect(panelVault.mentionCandidates()).toEqual([]);
		expect(panelVault.mayAttach("A/One.md")).toBe(false);
	});

	it("attaches existing public notes and folders only, and reads dropped links and obsidian:// URLs", async () => {
		const panelVault = await vault();
		expect(
			["A/One.md", "A/Tagged.md", "Secret/Three.md", "A/None.md", "A/B", "Secret", "Nowhere", ""].map((path) =>
				panelVault.mayAttach(path),
			),
		).toEqual([true, false, false, false, true, false, false, false]);
		expect(panelVault.droppedNote("obsidian://open?vault=V&file=A%2FB%2FTwo")).toBe("A/B/Two.md");
		expect(panelVault.droppedNote("[[One]]")).toBe("A/One.md");
		expect(panelVault.droppedNote("A/One.md")).toBe("A/One.md");
		expect(panelVault.droppedNote("obsidian://open?vault=V&file=Secret%2FThree")).toBeUndefined();
		expect(panelVault.droppedNote("just words")).toBeUndefined();
		expect(panelVault.droppedNote("obsidian://%%bad")).toBeUndefined();
	});

	it("judges an image dropped from the file explorer or embedded in a note by the privacy boundary, with the reason when refused", async () => {
		const app = await createIndexedApp({
			"Trips/Coast.md":
				"# Coast\n![[photo.png]]\n![[Secret/face.jpg|200]]\n![](huge.webp)\n![[photo.png]]\n![[Map.md]]\n![[scan.heic]]",
			"Trips/photo.png": "png",
			"Secret/face.jpg": "jpg",
			"Trips/huge.webp": "x".repeat(MAX_IMAGE_BYTES + 1),
			"Trips/scan.heic": "heic",
			"Map.md": "x",
		});
		const panelVault = new ObsidianPanelVault(app as never, () => ({
			hidesPath: (path) => path.startsWith("Secret/"),
			hidesFolder: (path) => path === "Secret",
		}));
		const photo = {
			image: {
				path: "Trips/photo.png",
				name: "photo.png",
				thumbnail: expect.stringMatching(/^app:\/\/local\/.*\/Trips\/photo\.png/) as unknown,
			},
		};
		expect(panelVault.droppedImage("obsidian://open?vault=V&file=Trips%2Fphoto.png")).toEqual(photo);
		expect(panelVault.droppedImage("![[photo.png]]")).toEqual(photo);
		expect(panelVault.droppedImage("Trips/photo.png")).toEqual(photo);
		expect(panelVault.droppedImage("[[Secret/face.jpg]]")).toEqual({
			refused: expect.stringContaining("“face.jpg” is in a private place") as unknown,
		});
		// A note is no image: it is mentioned instead.
		expect(panelVault.droppedImage("[[Map]]")).toBeUndefined();
		expect(panelVault.droppedNote("[[Map]]")).toBe("Map.md");
		// Each embedded image once, in order; the private one refused, the large one refused with its size.
		expect(panelVault.embeddedImages("Trips/Coast.md")).toEqual([
			photo,
			{ refused: expect.stringContaining("“face.jpg” is in a private place") as unknown },
			{ refused: "“huge.webp” is 10.1 MB; images of up to 10 MB can be sent." },
		]);
		const off = new ObsidianPanelVault(app as never, () => undefined);
		expect(off.droppedImage("[[photo.png]]")).toEqual({
			refused: expect.stringContaining("while the bridge is off") as unknown,
		});
	});

	describe("over the real privacy boundary, with symbolic links on disk (issue 26, finding 4)", () => {
		const temp = makeTempDir("panel-vault");
		afterAll(() => temp.remove());

		it("judges a link by where it leads: a public-looking link into a private folder is neither offered, attached, dropped nor the active note", async () => {
			const root = join(temp.path, "vault");
			mkdirSync(join(root, "Secret", "Inner"), { recursive: true });
			mkdirSync(join(root, "Notes"), { recursive: true });
			writeFileSync(join(root, "Secret", "Plan.md"), "the plan\n");
			writeFileSync(join(root, "Secret", "Inner", "Deep.md"), "deep\n");
			writeFileSync(join(root, "Notes", "Open.md"), "open\n");
			symlinkSync(join(root, "Secret", "Plan.md"), join(root, "Notes", "Link.md"));
			symlinkSync(join(root, "Secret", "Inner"), join(root, "Shortcut"));
			// Obsidian lists a link under its own path, as a note like any other.
			const app = await createIndexedApp(
				{
					"Notes/Open.md": "open\n",
					"Notes/Link.md": "the plan\n",
					"Secret/Plan.md": "the plan\n",
					"Shortcut/Deep.md": "deep\n",
				},
				root,
			);
			const privacy = new VaultPrivacy({
				paths: new VaultPaths(root),
				rules: () => ({ folders: ["Secret"], tags: [] }),
				tagsOf: () => [],
			});
			const panelVault = new ObsidianPanelVault(app as never, () => privacy);
			expect(panelVault.mentionCandidates()).toEqual([
				{ path: "Notes/Open.md", kind: "note" },
				{ path: "Notes", kind: "folder" },
			]);
			expect(
				["Notes/Open.md", "Notes/Link.md", "Shortcut/Deep.md", "Shortcut", "Notes"].map((path) =>
					panelVault.mayAttach(path),
				),
			).toEqual([true, false, false, false, true]);
			expect(panelVault.droppedNote("[[Link]]")).toBeUndefined();
			expect(panelVault.droppedNote("obsidian://open?vault=V&file=Notes%2FLink")).toBeUndefined();
		});
	});
});
