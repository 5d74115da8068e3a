const SHARDS = 64;

/**
 * A Map from string keys over 64 smaller ones, for what is kept per note of a large vault. A Map grows by making its
 * whole table again in one go: at 65,536 entries that one `set` took 13–62 ms on the bench's machine, a long task
 * of its own (bench/README, "The Obsidian side at 100k"); a shard grows by a 64th of that. No order across shards.
 */
export class ShardedMap<V> {
	private readonly shards = Array.from({ length: SHARDS }, () => new Map<string, V>());

	/** The key's shard: the top 6 bits of an FNV-1a hash of its last 12 characters (a path's name and extension). */
	private shard(key: string): Map<string, V> {
		let hash = 0x811c9dc5;
		for (let index = Math.max(0, key.length - 12); index < key.length; index++)
			hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
		return this.shards[hash >>> 26];
	}

	get(key: string): V | undefined {
		return this.shard(key).get(key);
	}

	set(key: string, value: V): this {
		this.shard(key).set(key, value);
		return this;
	}

	delete(key: string): boolean {
		return this.shard(key).delete(key);
	}
}
