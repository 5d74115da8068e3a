import { VaultAdapter } from "../../src/ide/vault-adapter";
import type { VaultFileEntry } from "../../src/vault/notes/vault-files";
import { VaultPaths } from "../../src/vault/vault-paths";

function adapterOver(entries: VaultFileEntry[]) {
	const paths = new VaultPaths("/vault");
	let listCalls = 0;
	const adapter = new VaultAdapter({
		paths,
		files: {
			list: () => {
				listCalls++;
				return [...entries];
			},
			stat: () => Promise.resolve(undefined),
			readBytes: () => Promise.reject(new Error("unused")),
		},
		currentSelection: () => undefined,
		maxReadBytes: 1024,
		pageSize: 10,
	});
	const list = adapter.methods().get("resources/list");
	if (!list) throw new Error("resources/list missing");
	const page = async (cursor?: string) =>
		(await list(cursor === undefined ? {} : { cursor }, {
			sessionId: 1,
			signal: new AbortController().signal,
		})) as { resources: { name: string }[]; nextCursor?: string };
	return { page, listCalls: () => listCalls };
}

describe("resources/list paging over a big vault", () => {
	it("lists and sorts the vault once for a whole paging run, and again for a new first page", async () => {
		const entries = Array.from({ length: 35 }, (_, index) => ({
			path: `note ${String(34 - index).padStart(2, "0")}.md`,
			size: 1,
		}));
		const { page, listCalls } = adapterOver(entries);
		const names: string[] = [];
		let cursor: string | undefined;
		do {
			const result = await page(cursor);
			names.push(...result.resources.map((resource) => resource.name));
			cursor = result.nextCursor;
		} while (cursor !== undefined);
		expect(names).toEqual([...entries.map((entry) => entry.path)].sort());
		expect(listCalls()).toBe(1);
		await page();
		expect(listCalls()).toBe(2);
	});
});
