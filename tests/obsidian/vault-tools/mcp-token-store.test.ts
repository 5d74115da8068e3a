import { McpTokenStore, type VaultLocalStorage } from "../../../src/obsidian/vault-tools/mcp-token-store";

class MemoryStorage implements VaultLocalStorage {
	readonly data = new Map<string, unknown>();
	loadLocalStorage(key: string): unknown {
		return this.data.get(key);
	}
	saveLocalStorage(key: string, data: unknown): void {
		this.data.set(key, data);
	}
}

describe("McpTokenStore", () => {
	it("makes a 256-bit hex token on first use, stores it and keeps answering it", () => {
		const storage = new MemoryStorage();
		const store = new McpTokenStore(storage);
		const token = store.current();
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		expect([...storage.data.values()]).toEqual([token]);
		expect(new McpTokenStore(storage).current()).toBe(token);
	});

	it("replaces the token on rotation", () => {
		const storage = new MemoryStorage();
		const store = new McpTokenStore(storage);
		const before = store.current();
		const after = store.rotate();
		expect(after).not.toBe(before);
		expect(store.current()).toBe(after);
	});

	it("replaces a stored value that is not a token", () => {
		for (const stored of ["short", 12345, { token: "x" }, "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"]) {
			const storage = new MemoryStorage();
			storage.saveLocalStorage("claude-code-bridge-mcp-token", stored);
			const token = new McpTokenStore(storage).current();
			expect(token).toMatch(/^[0-9a-f]{64}$/);
			expect(storage.loadLocalStorage("claude-code-bridge-mcp-token")).toBe(token);
		}
	});
});
