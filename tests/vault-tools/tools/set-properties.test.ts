import { createSetPropertiesTool, withProperties } from "../../../src/vault-tools/tools/set-properties";
import { noteVersion } from "../../../src/vault/notes/note-version";
import { toolOver } from "./vault-tool-env";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

describe("withProperties", () => {
	it("sets and removes keys, keeping other keys, comments, flow style and every byte after the frontmatter", () => {
		const text = "---\ntitle: A # the title\ntags: [a, b]\nold: 1\n---\nBody  \n\n";
		expect(withProperties(text, { tags: ["x", "y"], added: true }, ["old"], libraryYamlCodec)).toBe(
			"---\ntitle: A # the title\ntags: [x, y]\nadded: true\n---\nBody  \n\n",
		);
	});

	it("adds a frontmatter block to a note without one, in the note's line ends", () => {
		expect(withProperties("Body\r\nmore\r\n", { status: "draft" }, [], libraryYamlCodec)).toBe(
			"---\r\nstatus: draft\r\n---\r\nBody\r\nmore\r\n",
		);
	});

	it("leaves the text as it is when nothing changes, and an empty block when the last key goes", () => {
		const text = "---\nkeep: 1\n---\nx\n";
		expect(withProperties(text, { keep: 1 }, [], libraryYamlCodec)).toBe(text);
		expect(withProperties(text, {}, ["keep"], libraryYamlCodec)).toBe("---\n---\nx\n");
	});

	it("refuses frontmatter that is not valid YAML or not a map", () => {
		expect(() => withProperties("---\na: [\n---\n", { b: 1 }, [], libraryYamlCodec)).toThrow(
			/^the note's frontmatter is not valid YAML \(/,
		);
		expect(() => withProperties("---\n- a\n- b\n---\n", { b: 1 }, [], libraryYamlCodec)).toThrow(
			"the note's frontmatter is not a list of key: value properties",
		);
	});
});

describe("set_properties", () => {
	const NOTE = "---\nstatus: draft\n---\nbody\n";

	it("writes the change and answers what it set and removed, with the new version", async () => {
		const tool = toolOver(createSetPropertiesTool, { "Note.md": NOTE });
		try {
			const answer = await tool.call({ path: "Note", set: { status: "final", n: 2 }, remove: ["gone"] });
			const expected = "---\nstatus: final\nn: 2\n---\nbody\n";
			expect(tool.read("Note.md")).toBe(expected);
			expect(answer.text).toBe(`Updated Note.md: set status, n; removed gone. version ${noteVersion(expected)}`);
		} finally {
			tool.dispose();
		}
	});

	it("answers bad arguments and no-op changes as errors, writing nothing", async () => {
		const tool = toolOver(createSetPropertiesTool, { "Note.md": NOTE });
		try {
			expect((await tool.call({ path: "Note" })).text).toBe(
				'set_properties: give "set" (an object of properties) and/or "remove" (a list of keys)',
			);
			expect((await tool.call({ path: "Note", set: ["a"] })).text).toBe(
				'set_properties: "set" must be an object of property names and values',
			);
			expect((await tool.call({ path: "Note", set: { " ": 1 } })).text).toBe(
				'set_properties: "set" has an empty property name',
			);
			expect((await tool.call({ path: "Note", remove: [""] })).text).toBe(
				'set_properties: "remove" must be a list of property names',
			);
			expect((await tool.call({ path: "Note", set: { a: 1 }, remove: ["a"] })).text).toBe(
				"set_properties: a key cannot be both set and removed: a",
			);
			expect((await tool.call({ path: "Note", set: { status: "draft" } })).text).toBe(
				"set_properties: No change: Note.md already has these properties, so nothing was written.",
			);
			expect(tool.read("Note.md")).toBe(NOTE);
		} finally {
			tool.dispose();
		}
	});

	it("answers removing a property from a note without frontmatter as a clear no-op, writing nothing", async () => {
		const plain = "# Plain\n\nNo properties here.\n";
		const tool = toolOver(createSetPropertiesTool, { "Plain.md": plain });
		try {
			expect(withProperties(plain, {}, ["status"], libraryYamlCodec)).toBe(plain);
			expect((await tool.call({ path: "Plain", remove: ["status"] })).text).toBe(
				"set_properties: No change: Plain.md has no properties (no frontmatter), so there is nothing to remove; nothing was written.",
			);
			expect(tool.read("Plain.md")).toBe(plain);
			// Setting one and removing another still adds the frontmatter with what is set.
			await tool.call({ path: "Plain", set: { status: "draft" }, remove: ["old"] });
			expect(tool.read("Plain.md")).toBe(`---\nstatus: draft\n---\n${plain}`);
		} finally {
			tool.dispose();
		}
	});

	it("reports a rejected review and leaves the note unchanged", async () => {
		const tool = toolOver(
			createSetPropertiesTool,
			{ "Note.md": NOTE },
			{ review: () => ({ propose: () => Promise.resolve({ kind: "rejected" }) }) },
		);
		try {
			expect((await tool.call({ path: "Note", set: { status: "final" } })).text).toBe(
				"Not applied: the user rejected the change in the review. Note.md is unchanged.",
			);
			expect(tool.read("Note.md")).toBe(NOTE);
		} finally {
			tool.dispose();
		}
	});
});
