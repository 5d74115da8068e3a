import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE } from "../../../src/agent/engine/image-content";
import { ImageTray } from "../../../src/obsidian/agent/image-tray";
import { ObsidianPanelVault } from "../../../src/obsidian/agent/panel-vault";
import { FakeElement } from "../../__mocks__/obsidian";
import { TINY_PNG } from "../../helpers/image-bytes";
import { unreachableByKeyboard } from "../../helpers/keyboard-reach";
import { createIndexedApp } from "../harness/indexed-app";

/** A file as the clipboard or a drop hands it over; `read` counts the reads of its bytes. */
function file(name: string, bytes: BlobPart, read: string[] = []): File {
	const made = new File([bytes], name);
	const arrayBuffer = made.arrayBuffer.bind(made);
	made.arrayBuffer = () => {
		read.push(name);
		return arrayBuffer();
	};
	return made;
}

async function tray(systemPaths: Record<string, string> = {}) {
	const app = await createIndexedApp({ "Trips/photo.png": "png", "Private/face.png": "png" }, "/vault");
	const vault = new ObsidianPanelVault(app as never, () => ({
		hidesPath: (path) => path.startsWith("Private/"),
		hidesFolder: (path) => path === "Private",
	}));
	const parent = new FakeElement();
	let focused = 0;
	const images = new ImageTray(
		parent as unknown as HTMLElement,
		vault,
		(dropped) => systemPaths[dropped.name],
		() => (focused += 1),
	);
	images.load();
	const chips = (): FakeElement[] => parent.findAll("ccb-agent-image-chip");
	return { images, parent, chips, focused: () => focused };
}

describe("ImageTray", () => {
	it("shows a pasted image as a thumbnail chip named by its file (the alt text), and hands its bytes over once", async () => {
		const { images, parent, chips } = await tray();
		const revoked = jest.spyOn(URL, "revokeObjectURL");
		await images.addFiles([file("", TINY_PNG), file("diagram.png", TINY_PNG)]);
		expect(images.names).toEqual(["Pasted image", "diagram.png"]);
		const [first] = chips();
		const thumb = first?.findAll("ccb-agent-image-thumb")[0];
		expect(thumb?.tag).toBe("img");
		expect(thumb?.attributes.get("alt")).toBe("Pasted image");
		expect(thumb?.attributes.get("src")).toMatch(/^blob:/);
		expect(first?.findAll("ccb-agent-image-remove")[0]?.attributes.get("aria-label")).toBe(
			"Remove the image Pasted image",
		);
		expect(parent.findAll("ccb-agent-images")[0]?.attributes.get("aria-label")).toBe("Images to send");
		const taken = images.take();
		expect(taken).toEqual([
			{ name: "Pasted image", bytes: TINY_PNG },
			{ name: "diagram.png", bytes: TINY_PNG },
		]);
		expect(chips()).toEqual([]);
		expect(parent.findAll("ccb-agent-images")[0]?.hasClass("is-hidden")).toBe(true);
		expect(revoked).toHaveBeenCalledTimes(2);
		expect(images.take()).toEqual([]);
		revoked.mockRestore();
	});

	it("refuses a file that is no image by its bytes (whatever its name), and one too large without reading it", async () => {
		const { images, parent } = await tray();
		const read: string[] = [];
		const large = file("poster.png", "", read);
		Object.defineProperty(large, "size", { value: MAX_IMAGE_BYTES + 1 });
		await images.addFiles([file("notes.png", "%PDF-1.7", read), large]);
		expect(images.names).toEqual([]);
		expect(read).toEqual(["notes.png"]);
		expect(images.problem).toBe(
			"“notes.png” is not a PNG, JPEG, GIF or WebP image, so Claude cannot read it. “poster.png” is 10.1 MB; images of up to 10 MB can be sent.",
		);
		const problem = parent.findAll("ccb-agent-input-problem")[0];
		expect(problem?.hasClass("is-hidden")).toBe(false);
		expect(problem?.attributes.get("aria-live")).toBe("polite");
		await images.addFiles([file("ok.png", TINY_PNG)]);
		expect(images.problem).toBe("");
	});

	it("judges a file from inside the vault as the vault's image: a private one refused with the reason, never read", async () => {
		const { images } = await tray({ "face.png": "/vault/Private/face.png", "photo.png": "/vault/Trips/photo.png" });
		const read: string[] = [];
		const notes: string[] = [];
		await images.addFiles([file("face.png", TINY_PNG, read), file("photo.png", TINY_PNG, read)], (path) =>
			notes.push(path),
		);
		expect(read).toEqual([]);
		expect(images.names).toEqual(["photo.png"]);
		expect(images.problem).toContain("“face.png” is in a private place");
		expect(images.take()).toEqual([{ name: "photo.png", path: "Trips/photo.png" }]);
	});

	it("hands a note dropped from the vault's folder on as a note, and takes images of the vault from their choices", async () => {
		const { images } = await tray({ "Plan.md": "/vault/Plan.md" });
		const notes: string[] = [];
		await images.addFiles([file("Plan.md", "# Plan")], (path) => notes.push(path));
		expect(notes).toEqual(["Plan.md"]);
		images.addChoices([
			{ image: { path: "Trips/photo.png", name: "photo.png", thumbnail: "app://local/vault/Trips/photo.png" } },
			{ refused: "“face.png” is in a private place." },
		]);
		expect(images.names).toEqual(["photo.png"]);
		expect(images.problem).toBe("“face.png” is in a private place.");
	});

	it(`takes up to ${MAX_IMAGES_PER_MESSAGE} images, and says so for the next`, async () => {
		const { images } = await tray();
		await images.addFiles(
			Array.from({ length: MAX_IMAGES_PER_MESSAGE + 1 }, (_, index) => file(`${index}.png`, TINY_PNG)),
		);
		expect(images.names).toHaveLength(MAX_IMAGES_PER_MESSAGE);
		expect(images.problem).toBe(
			`“${MAX_IMAGES_PER_MESSAGE}.png” was left out: a message takes up to ${MAX_IMAGES_PER_MESSAGE} images.`,
		);
	});

	it("removes a chip by its button (reachable by keyboard; the focus goes back to the message box) or the last one", async () => {
		const { images, parent, chips, focused } = await tray();
		await images.addFiles([file("a.png", TINY_PNG), file("b.png", TINY_PNG), file("c.png", TINY_PNG)]);
		expect(unreachableByKeyboard(parent)).toEqual([]);
		chips()[1]?.findAll("ccb-agent-image-remove")[0]?.dispatch("click");
		expect(images.names).toEqual(["a.png", "c.png"]);
		expect(focused()).toBe(1);
		expect(images.removeLast()).toBe(true);
		expect(images.removeLast()).toBe(true);
		expect(images.removeLast()).toBe(false);
		expect(images.names).toEqual([]);
	});

	it("puts a rewound message's images back: pasted bytes checked again, vault images judged again as the vault stands now", async () => {
		const { images, chips } = await tray();
		images.addSent([
			{ name: "Pasted image", bytes: TINY_PNG },
			{ name: "photo.png", path: "Trips/photo.png" },
			{ name: "face.png", path: "Private/face.png" },
			{ name: "gone.png", path: "Trips/gone.png" },
			{ name: "notes.png", bytes: new TextEncoder().encode("%PDF-1.7") },
		]);
		expect(images.names).toEqual(["Pasted image", "photo.png"]);
		expect(chips()[0]?.findAll("ccb-agent-image-thumb")[0]?.attributes.get("src")).toMatch(/^blob:/);
		expect(images.problem).toBe(
			"“face.png” is in a private place (this plugin's private folders or Obsidian's excluded files), so it is not sent to Claude. “gone.png” could not be read. “notes.png” is not a PNG, JPEG, GIF or WebP image, so Claude cannot read it.",
		);
		expect(images.take()).toEqual([
			{ name: "Pasted image", bytes: TINY_PNG },
			{ name: "photo.png", path: "Trips/photo.png" },
		]);
	});
});
