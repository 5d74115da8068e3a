import { RewindConfirm, rewindWords, rewoundWords } from "../../../src/obsidian/agent/rewind-confirm";
import { App, Modal, type FakeElement } from "../../__mocks__/obsidian";

const LAST =
	"The conversation goes back to before this message, and its text returns to the message box. To keep the later turns as well, use Fork from here first.";

describe("rewindWords", () => {
	it("says how many notes go back to how they were before the message, by name", () => {
		expect(rewindWords({ restore: ["Drafts/Chapter 1.md", "Plan.md"], review: [], left: [] })).toEqual([
			"Restores 2 notes to how they were before this message: Chapter 1, Plan.",
			LAST,
		]);
		expect(rewindWords({ restore: ["Plan.md"], review: [], left: [] })[0]).toBe(
			"Restores 1 note to how it was before this message: Plan.",
		);
	});

	it("says which notes open in the review, which stay as they are and why, and when no note changed", () => {
		expect(
			rewindWords({
				restore: [],
				review: ["Plan.md"],
				left: [{ path: "Gone.md", reason: "is gone (moved or deleted since)" }],
			}),
		).toEqual([
			"1 note changed since Claude's edit (Plan): it opens in the review, so you choose what it holds.",
			"Gone stays as it is: is gone (moved or deleted since).",
			LAST,
		]);
		expect(rewindWords({ restore: [], review: [], left: [] })).toEqual([
			"Claude changed no notes after this message.",
			LAST,
		]);
		expect(rewindWords(undefined)[0]).toMatch(/^Notes are not restored: the activity journal is off/);
	});

	it("names at most three notes", () => {
		const restore = ["a.md", "b.md", "c.md", "d.md", "e.md"];
		expect(rewindWords({ restore, review: [], left: [] })[0]).toBe(
			"Restores 5 notes to how they were before this message: a, b, c and 2 more.",
		);
	});
});

describe("rewoundWords", () => {
	it("says what the rewind did, or why the notes were not restored", () => {
		expect(rewoundWords({ restore: ["Plan.md"], review: ["B.md"], left: [] })).toBe(
			"Rewound to before your message. Restored Plan to how it was then. Open in the review, for you to choose: B.",
		);
		expect(rewoundWords(undefined)).toMatch(/Notes were not restored: the activity journal is off/);
		expect(rewoundWords(undefined, "disk full")).toBe(
			"Rewound to before your message, but the notes could not be restored: disk full",
		);
	});
});

describe("RewindConfirm", () => {
	it("asks with the words, and rewinds only on Rewind", () => {
		let rewound = 0;
		const confirm = new RewindConfirm(new App("/vault", "Vault") as never, undefined, () => rewound++);
		confirm.open();
		const content = confirm.contentEl as unknown as FakeElement;
		expect(content.findAll("ccb-rewind-confirm-cancel")[0]?.tag).toBe("button");
		content.findAll("ccb-rewind-confirm-cancel")[0]?.dispatch("click");
		expect(rewound).toBe(0);
		expect(Modal.opened).not.toContain(confirm);
		confirm.open();
		expect((confirm.titleEl as unknown as FakeElement).text).toBe("Rewind to before this message?");
		expect(content.children.filter((child) => child.tag === "p").map((p) => p.text)).toEqual(
			rewindWords(undefined),
		);
		content.findAll("ccb-rewind-confirm-yes")[0]?.dispatch("click");
		expect(rewound).toBe(1);
		expect(Modal.opened).not.toContain(confirm);
	});
});
