import { ShardedMap } from "../../src/shared/sharded-map";

describe("ShardedMap", () => {
	const paths = Array.from({ length: 20_000 }, (_, index) => `Folder ${index % 50}/note ${index}.md`);

	it("keeps, replaces and forgets values by key, as a Map does", () => {
		const map = new ShardedMap<number>();
		paths.forEach((path, index) => map.set(path, index));
		expect(paths.every((path, index) => map.get(path) === index)).toBe(true);
		map.set(paths[7] ?? "", -1);
		expect(map.get(paths[7] ?? "")).toBe(-1);
		expect(map.delete(paths[8] ?? "")).toBe(true);
		expect(map.delete(paths[8] ?? "")).toBe(false);
		expect(map.get(paths[8] ?? "")).toBeUndefined();
		expect(map.get("not there.md")).toBeUndefined();
	});

	it("spreads a vault's paths over its shards (none holds more than twice its share)", () => {
		const map = new ShardedMap<number>();
		paths.forEach((path, index) => map.set(path, index));
		const sizes = (map as unknown as { shards: Map<string, number>[] }).shards.map((shard) => shard.size);
		expect(sizes).toHaveLength(64);
		expect(Math.max(...sizes)).toBeLessThanOrEqual((2 * paths.length) / 64);
	});
});
