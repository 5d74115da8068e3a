import { renderReply } from "../../../src/obsidian/agent/reply-rendering";
import { App, FakeElement, MarkdownRenderer, Plugin, Component } from "../../__mocks__/obsidian";

const DATAVIEW_REPLY =
	"Here is a query:\n\n```dataviewjs\ndv.paragraph(app.vault.getName())\n```\n\nAnd `inline` code.";

function withProcessors() {
	const app = new App("/vault", "Vault");
	const other = new Plugin(app, { id: "dataview", name: "Dataview", version: "1" });
	other.load();
	const dataviewjs = jest.fn();
	const templater = jest.fn();
	other.registerMarkdownCodeBlockProcessor("dataviewjs", dataviewjs);
	other.registerMarkdownCodeBlockProcessor("templater", templater);
	return { app, other, dataviewjs, templater };
}

function rendered(markdown: string, openInternal: (target: string) => void = () => undefined): FakeElement {
	const root = new FakeElement();
	renderReply(root as unknown as HTMLElement, markdown, { openInternal });
	return root;
}

const tagsOf = (element: FakeElement): string[] => element.children.flatMap((child) => [child.tag, ...tagsOf(child)]);

describe("renderReply", () => {
	it("shows a dataviewjs or templater block as code and runs no code block processor (Obsidian's renderer would)", async () => {
		const { app, other, dataviewjs, templater } = withProcessors();
		// The control: Obsidian's Markdown rendering hands the block to the processor another plugin registered.
		await MarkdownRenderer.render(app, DATAVIEW_REPLY, new FakeElement(), "", new Component());
		expect(dataviewjs).toHaveBeenCalledTimes(1);
		dataviewjs.mockClear();

		const root = rendered(`${DATAVIEW_REPLY}\n\n~~~templater\n<% tp.file.title %>\n~~~`);
		expect(dataviewjs).not.toHaveBeenCalled();
		expect(templater).not.toHaveBeenCalled();
		const blocks = root.findAll("ccb-agent-code");
		expect(blocks.map((block) => block.findAll("ccb-agent-code-language")[0]?.text)).toEqual([
			"dataviewjs",
			"templater",
		]);
		expect(blocks[0]?.children.find((child) => child.tag === "code")?.text).toBe(
			"dv.paragraph(app.vault.getName())",
		);
		expect(blocks[1]?.children.find((child) => child.tag === "code")?.text).toBe("<% tp.file.title %>");
		other.unload();
	});

	it("builds paragraphs, headings, lists and emphasis from text nodes", () => {
		const root = rendered("## Today\n\nI **moved** the *notes*.\n\n- a\n- b");
		expect(tagsOf(root)).toEqual([
			"h2",
			"#text",
			"p",
			"#text",
			"strong",
			"#text",
			"#text",
			"em",
			"#text",
			"#text",
			"ul",
			"li",
			"#text",
			"li",
			"#text",
		]);
		expect(root.textContent).toBe("TodayI moved the notes.ab");
	});

	it("opens vault links through Obsidian, gives web links an anchor, and shows other schemes as text", () => {
		const opened: string[] = [];
		const root = rendered(
			"See [[Projects/Plan|the plan]], [docs](https://example.org) and [bad](javascript:alert(1)).",
			(target) => opened.push(target),
		);
		const internal = root.findAll("internal-link")[0];
		internal?.dispatch("click");
		expect(opened).toEqual(["Projects/Plan"]);
		expect(root.findAll("external-link")[0]?.attributes.get("href")).toBe("https://example.org");
		expect(root.findAll("ccb-agent-unsafe-link")[0]?.textContent).toBe("bad");
		expect(tagsOf(root).filter((tag) => tag === "a")).toHaveLength(2);
	});

	it("loads a remote image only when its placeholder is clicked", () => {
		const root = rendered("![chart](https://images.example.org/c.png)");
		expect(tagsOf(root)).not.toContain("img");
		const placeholder = root.findAll("ccb-agent-image-placeholder")[0];
		expect(placeholder?.text).toBe("Load image from images.example.org: chart");
		placeholder?.dispatch("click");
		const image = root.findAll("ccb-agent-image")[0];
		expect(image?.tag).toBe("img");
		expect(image?.attributes.get("src")).toBe("https://images.example.org/c.png");
	});
});
