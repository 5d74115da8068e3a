import type { MessageImage } from "../../../src/agent/agent-session";
import { MessageInput } from "../../../src/obsidian/agent/message-input";
import { TINY_PNG } from "../../helpers/image-bytes";
import { pollUntil } from "../../helpers/wait-until";
import { ObsidianPanelVault, type PanelPrivacy } from "../../../src/obsidian/agent/panel-vault";
import { FakeElement } from "../../__mocks__/obsidian";
import { createIndexedApp } from "../harness/indexed-app";

/** Private: the folder "Private" and the note "Notes/Diary.md" (as a private tag would make it). */
const privacy: PanelPrivacy = {
	hidesPath: (path) => path.startsWith("Private/") || path === "Notes/Diary.md",
	hidesFolder: (path) => path === "Private" || path.startsWith("Private/"),
};

async function input() {
	const app = await createIndexedApp({
		...Object.fromEntries(
			["Notes/Plan.md", "Notes/Diary.md", "Private/Plans.md", "Projects/Garden plan.md", "Inbox.md"].map(
				(path) => [path, "text"],
			),
		),
		"Trips/photo.png": "png",
		"Private/face.png": "png",
	});
	const sent: { text: string; mentions: string[] }[] = [];
	const sentImages: MessageImage[][] = [];
	const parent = new FakeElement();
	const box = new MessageInput(
		parent as unknown as HTMLElement,
		new ObsidianPanelVault(app as never, () => privacy),
		(text, mentions, images) => {
			sent.push({ text, mentions });
			sentImages.push(images);
		},
		() => undefined,
	);
	box.load();
	const textarea = box.textarea as unknown as FakeElement;
	const type = (text: string): void => {
		textarea.value = text;
		textarea.dispatch("input");
	};
	const key = (name: string, extra: Record<string, unknown> = {}): void =>
		textarea.dispatch("keydown", { key: name, shiftKey: false, ...extra });
	return { box, sent, sentImages, textarea, type, key, parent };
}

describe("MessageInput", () => {
	it("sends on Enter, keeps Shift+Enter and an IME's Enter for the text, and sends nothing empty", async () => {
		const { sent, textarea, type, key } = await input();
		type("first line");
		key("Enter", { shiftKey: true });
		key("Enter", { isComposing: true });
		expect(sent).toEqual([]);
		type("  first line\nsecond  ");
		key("Enter");
		type("   ");
		key("Enter");
		expect(sent).toEqual([{ text: "first line\nsecond", mentions: [] }]);
		expect(textarea.value).toBe("   ");
	});

	it("completes @ with public notes and folders only: a private note or folder is never offered", async () => {
		const { box, type } = await input();
		type("Look at @plan");
		expect(box.shownSuggestions).toEqual(["Notes/Plan.md", "Projects/Garden plan.md"]);
		type("Look at @");
		expect(box.shownSuggestions).toEqual([
			"Inbox.md",
			"Notes/Plan.md",
			"Projects/Garden plan.md",
			"Notes",
			"Projects",
		]);
		type("Look at @Priv");
		expect(box.shownSuggestions).toEqual([]);
		type("Look at @diary");
		expect(box.shownSuggestions).toEqual([]);
	});

	it("puts the picked note in the text and sends it as a mention while it is still there", async () => {
		const { box, sent, textarea, type, key } = await input();
		type("Compare @gard");
		key("Enter");
		expect(textarea.value).toBe("Compare @Projects/Garden plan.md ");
		type(`${textarea.value}with @No`);
		key("ArrowDown");
		key("Enter");
		expect(box.shownSuggestions).toEqual([]);
		type(`${textarea.value}please`);
		key("Enter");
		expect(sent).toEqual([
			{
				text: "Compare @Projects/Garden plan.md with @Notes please",
				mentions: ["Projects/Garden plan.md", "Notes"],
			},
		]);
		// A mention deleted from the text is not attached.
		type("About @Inb");
		key("Tab");
		type("About nothing");
		key("Enter");
		expect(sent[1]).toEqual({ text: "About nothing", mentions: [] });
	});

	it("attaches an @path typed by hand when the panel may attach it, and never a private note or folder", async () => {
		const { sent, type, key } = await input();
		type(
			"Read @Inbox and @Notes/Plan.md, not @Notes/Diary.md, @Private or @Private/Plans.md, nor @Nowhere.md; mail a@Inbox.md",
		);
		key("Escape");
		key("Enter");
		expect(sent).toEqual([
			{
				text: "Read @Inbox and @Notes/Plan.md, not @Notes/Diary.md, @Private or @Private/Plans.md, nor @Nowhere.md; mail a@Inbox.md",
				mentions: ["Inbox.md", "Notes/Plan.md"],
			},
		]);
	});

	it("closes the list on Escape, and Enter then sends", async () => {
		const { box, sent, type, key } = await input();
		type("@Inb");
		key("Escape");
		expect(box.shownSuggestions).toEqual([]);
		key("Enter");
		expect(sent).toEqual([{ text: "@Inb", mentions: [] }]);
	});

	it("mentions a note dragged in from the file explorer, but not a private one", async () => {
		const { sent, textarea, key } = await input();
		const drop = (text: string): void =>
			textarea.dispatch("drop", {
				dataTransfer: { getData: (type: string) => (type === "text/plain" ? text : "") },
			});
		textarea.value = "See";
		drop("obsidian://open?vault=Vault&file=Notes%2FPlan");
		drop("obsidian://open?vault=Vault&file=Private%2FPlans");
		drop("[[Diary]]");
		drop("[[Garden plan]]");
		expect(textarea.value).toBe("See @Notes/Plan.md @Projects/Garden plan.md ");
		key("Enter");
		expect(sent).toEqual([
			{
				text: "See @Notes/Plan.md @Projects/Garden plan.md",
				mentions: ["Notes/Plan.md", "Projects/Garden plan.md"],
			},
		]);
	});

	it("takes a pasted image as a chip and sends it with the message; pasted text stays the box's", async () => {
		const { box, sent, sentImages, textarea, type, key } = await input();
		let prevented = 0;
		const paste = (files: File[]): void =>
			textarea.dispatch("paste", { clipboardData: { files }, preventDefault: () => (prevented += 1) });
		paste([]);
		expect(prevented).toBe(0);
		paste([new File([TINY_PNG], "Screenshot.png")]);
		expect(prevented).toBe(1);
		await pollUntil(() => (box.images.names.length > 0 ? true : undefined), "the pasted image's chip");
		expect(box.images.names).toEqual(["Screenshot.png"]);
		type("What does this show?");
		key("Enter");
		expect(sent).toEqual([{ text: "What does this show?", mentions: [] }]);
		expect(sentImages).toEqual([[{ name: "Screenshot.png", bytes: TINY_PNG }]]);
		expect(box.images.names).toEqual([]);
	});

	it("takes an image dropped from the file explorer (a private one refused with the reason) or the system, and sends images without words", async () => {
		const { box, sent, sentImages, textarea, key } = await input();
		const drop = (text: string, files: File[] = []): void =>
			textarea.dispatch("drop", {
				dataTransfer: { files, getData: (kind: string) => (kind === "text/plain" ? text : "") },
			});
		drop("obsidian://open?vault=Vault&file=Trips%2Fphoto.png");
		drop("![[Private/face.png]]");
		expect(box.images.names).toEqual(["photo.png"]);
		expect(box.images.problem).toContain("“face.png” is in a private place");
		drop("", [new File([TINY_PNG], "from the desktop.png")]);
		await pollUntil(() => (box.images.names.length > 1 ? true : undefined), "the dropped file's chip");
		key("Enter");
		expect(sent).toEqual([{ text: "", mentions: [] }]);
		expect(sentImages).toEqual([
			[
				{ name: "photo.png", path: "Trips/photo.png" },
				{ name: "from the desktop.png", bytes: TINY_PNG },
			],
		]);
	});

	it("takes the last image off with Backspace in an empty box, and leaves Backspace to the text otherwise", async () => {
		const { box, textarea, type, key } = await input();
		textarea.dispatch("drop", { dataTransfer: { files: [], getData: () => "[[photo.png]]" } });
		type("a");
		key("Backspace");
		expect(box.images.names).toEqual(["photo.png"]);
		type("");
		key("Backspace");
		expect(box.images.names).toEqual([]);
	});
});
