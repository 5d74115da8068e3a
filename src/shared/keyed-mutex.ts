/**
 * One queue per key: `run(keys, task)` waits until no earlier task holds any of the keys, then runs. Keys are
 * taken in sorted order, so two tasks that share keys can never wait for each other in a cycle.
 */
export class KeyedMutex {
	private readonly tails = new Map<string, Promise<void>>();

	async run<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
		const ordered = [...new Set(keys)].sort();
		const releases: (() => void)[] = [];
		try {
			for (const key of ordered) releases.push(await this.acquire(key));
			return await task();
		} finally {
			for (const release of releases.reverse()) release();
		}
	}

	/** How many keys are held or waited for (for tests and status). */
	get size(): number {
		return this.tails.size;
	}

	private async acquire(key: string): Promise<() => void> {
		const previous = this.tails.get(key) ?? Promise.resolve();
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const tail = previous.then(() => held);
		this.tails.set(key, tail);
		await previous;
		return () => {
			release();
			if (this.tails.get(key) === tail) this.tails.delete(key);
		};
	}
}
