import { FakeElement, notices } from "../../__mocks__/obsidian";
import { commandBlock, copyText } from "../../../src/obsidian/settings/command-block";

const flush = () => new Promise((done) => setImmediate(done));

describe("command blocks", () => {
	let copied: string[];
	beforeEach(() => {
		copied = [];
		notices.splice(0);
		Object.defineProperty(globalThis, "navigator", {
			configurable: true,
			value: { clipboard: { writeText: (text: string) => (copied.push(text), Promise.resolve()) } },
		});
	});

	it("show the command as code and copy it whole, with the notice given", async () => {
		const container = new FakeElement();
		commandBlock(container as unknown as HTMLElement, 'cd "/a b" && claude --ide', "Launch command copied.");
		const block = container.findAll("ccb-command")[0];
		expect(block?.children.map((child) => [child.tag, child.text])).toEqual([
			["code", 'cd "/a b" && claude --ide'],
			["button", "Copy"],
		]);
		block?.children[1]?.dispatch("click");
		await flush();
		expect(copied).toEqual(['cd "/a b" && claude --ide']);
		expect(notices).toEqual(["Launch command copied."]);
	});

	it("say so when the clipboard refuses, in one line", async () => {
		Object.defineProperty(globalThis, "navigator", {
			configurable: true,
			value: { clipboard: { writeText: () => Promise.reject(new Error("Document is not focused.")) } },
		});
		await copyText("x", "Copied.");
		expect(notices).toEqual(["Could not copy: Document is not focused."]);
	});
});
