import {
	capText,
	defineVaultTool,
	encodeCursor,
	notePathQuery,
	page,
	readCursor,
	readLimit,
	readOffset,
	snippet,
	textAnswer,
	type VaultToolEnvironment,
} from "../../../src/vault-tools/kit/tool-kit";
import { ToolArgumentError } from "../../../src/protocol/tool-arguments";
import { VaultToolError } from "../../../src/vault/privacy/visible-vault";
import { TargetError } from "../../../src/vault-tools/text/edit-targets";
import { toolOver } from "../tools/vault-tool-env";
import { createLinksTool } from "../../../src/vault-tools/tools/links";
import { createSearchTool } from "../../../src/vault-tools/tools/search";
import { createTagsTool } from "../../../src/vault-tools/tools/tags";
import type { ToolDefinition } from "../../../src/protocol/mcp-types";
import type { JsonObject } from "../../../src/protocol/json-rpc";

describe("defineVaultTool", () => {
	function probe(run: () => Promise<never> | Promise<ReturnType<typeof textAnswer>>) {
		return (env: VaultToolEnvironment) =>
			defineVaultTool(
				{
					name: "probe",
					description: "d",
					properties: { a: { type: "string" } },
					required: ["a"],
					annotations: { readOnlyHint: true },
					run,
				},
				env,
			);
	}

	it("builds a closed object schema with the required names", () => {
		const vault = toolOver(
			probe(() => Promise.resolve(textAnswer(["ok"]))),
			{},
		);
		try {
			const tool = probe(() => Promise.resolve(textAnswer(["ok"])))(vault.env);
			expect(tool.inputSchema).toEqual({
				type: "object",
				properties: { a: { type: "string" } },
				additionalProperties: false,
				required: ["a"],
			});
		} finally {
			vault.dispose();
		}
	});

	it("refuses unknown arguments, naming the ones it takes", async () => {
		const vault = toolOver(
			probe(() => Promise.resolve(textAnswer(["ok"]))),
			{},
		);
		try {
			expect(await vault.call({ a: "x", b: 1, c: 2 })).toMatchObject({
				isError: true,
				text: 'probe: unknown argument "b", "c"; probe takes a',
			});
			expect(await vault.call({ a: "x" })).toMatchObject({ isError: false, text: "ok" });
		} finally {
			vault.dispose();
		}
	});

	it("answers argument, vault and target errors as error results prefixed once with the tool's name, and throws others", async () => {
		for (const [error, text] of [
			[new ToolArgumentError("bad a"), "probe: bad a"],
			[new VaultToolError("probe: already named"), "probe: already named"],
			[new TargetError("no heading"), "probe: no heading"],
		] as const) {
			const vault = toolOver(
				probe(() => Promise.reject(error)),
				{},
			);
			try {
				expect(await vault.call({ a: "x" })).toMatchObject({ isError: true, text });
			} finally {
				vault.dispose();
			}
		}
		const crashing = toolOver(
			probe(() => Promise.reject(new Error("crash"))),
			{},
		);
		try {
			await expect(crashing.call({ a: "x" })).rejects.toThrow("crash");
		} finally {
			crashing.dispose();
		}
	});
});

describe("the frontmatter a tool reads (the need its refresh is given)", () => {
	async function needOf(create: (env: VaultToolEnvironment) => ToolDefinition, args: JsonObject): Promise<unknown> {
		const vault = toolOver(create, { "A.md": "---\nstatus: open\n---\n# A\n" });
		try {
			const refresh = jest.spyOn(vault.index, "refresh");
			await vault.call(args);
			return (refresh.mock.calls[0] as unknown[] | undefined)?.[0];
		} finally {
			vault.dispose();
		}
	}

	it("is the links for links, the tags for tags and tag search, none for text search, every note's by default", async () => {
		expect(await needOf(createLinksTool, { path: "A.md" })).toBe("links");
		expect(await needOf(createTagsTool, {})).toBe("tags");
		expect(await needOf(createSearchTool, { query: "a" })).toBe("none");
		expect(await needOf(createSearchTool, { query: "a", mode: "regex" })).toBe("none");
		expect(await needOf(createSearchTool, { query: "#a", mode: "tag" })).toBe("tags");
		expect(await needOf(createSearchTool, { query: "status", mode: "property" })).toBe("every note");
		const probe = (env: VaultToolEnvironment): ToolDefinition =>
			defineVaultTool(
				{
					name: "probe",
					description: "d",
					properties: {},
					annotations: { readOnlyHint: true },
					run: () => Promise.resolve(textAnswer(["ok"])),
				},
				env,
			);
		expect(await needOf(probe, {})).toBeUndefined();
	});
});

describe("argument readers", () => {
	it("readLimit: 1 to 100, default 20", () => {
		expect(readLimit({})).toBe(20);
		expect(readLimit({ limit: 100 })).toBe(100);
		for (const limit of [0, 101, 2.5, "5"])
			expect(() => readLimit({ limit })).toThrow(
				`"limit" must be a whole number from 1 to 100, not ${JSON.stringify(limit)}`,
			);
	});

	it("readOffset: whole and not negative, default 0", () => {
		expect(readOffset({})).toBe(0);
		expect(readOffset({ from: 7 }, "from")).toBe(7);
		expect(() => readOffset({ offset: -1 })).toThrow('"offset" must be a whole number of 0 or more, not -1');
	});

	it("notePathQuery: a non-empty string", () => {
		expect(notePathQuery({ path: "Note" })).toBe("Note");
		expect(() => notePathQuery({ path: " " })).toThrow(
			'"path" is required: a vault path like "Folder/Note.md" or a note name like "Note"',
		);
	});
});

describe("cursors and pages", () => {
	it("a cursor carries its offset and is refused for another query or when it is not one", () => {
		const cursor = encodeCursor(45, "query A");
		expect(readCursor({ cursor }, "query A")).toBe(45);
		expect(readCursor({}, "query A")).toBe(0);
		expect(() => readCursor({ cursor }, "query B")).toThrow(
			'"cursor" belongs to a different query; repeat the same arguments with it, or omit it to start again',
		);
		expect(() => readCursor({ cursor: "nonsense" }, "query A")).toThrow(
			'"cursor" "nonsense" is not a cursor this tool gave; omit it to start from the first page',
		);
		expect(() => readCursor({ cursor: 3 }, "query A")).toThrow(
			'"cursor" must be the string a previous answer gave, not 3',
		);
	});

	it("a page shows its items with the total and the next page's cursor", () => {
		const items = ["a", "b", "c", "d", "e"];
		const first = page(items, 0, 2, "q", "notes");
		expect(first).toEqual({
			items: ["a", "b"],
			footer: `total 5 notes; showing 1-2. More: cursor "${encodeCursor(2, "q")}".`,
		});
		expect(page(items, 4, 2, "q", "notes")).toEqual({ items: ["e"], footer: "total 5 notes; showing 5-5." });
		expect(page(items, 9, 2, "q", "notes")).toEqual({
			items: [],
			footer: "total 5 notes; the cursor is past the end (nothing more).",
		});
		expect(page([], 0, 2, "q", "notes")).toEqual({ items: [], footer: "0 notes." });
	});
});

describe("capText", () => {
	it("cuts at the cap, says where to continue, and never splits a surrogate pair", () => {
		expect(capText("short", 0, 10)).toEqual({ text: "short" });
		expect(capText("abcdefghij", 0, 4)).toEqual({
			text: "abcd",
			note: "characters 0-4 of 10; continue with offset 4",
		});
		expect(capText("abcdefghij", 8, 4)).toEqual({ text: "ij", note: "characters 8-10 of 10 (the end)" });
		expect(capText("ab😀cd", 0, 3)).toEqual({ text: "ab", note: "characters 0-2 of 6; continue with offset 2" });
		expect(() => capText("abc", 4, 2)).toThrow('"offset" 4 is past the end of the text (3 characters)');
	});
});

describe("snippet", () => {
	it("trims a line and keeps at most max characters around the match, marking cuts", () => {
		expect(snippet("   short line  ")).toBe("short line");
		const long = `${"a".repeat(50)}MATCH${"b".repeat(50)}`;
		const cut = snippet(long, 50, 20);
		expect(cut).toContain("MATCH");
		expect(cut.startsWith("…") && cut.endsWith("…")).toBe(true);
		expect(cut.replace(/…/g, "")).toHaveLength(20);
	});
});
