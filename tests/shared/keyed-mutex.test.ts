import { KeyedMutex } from "../../src/shared/keyed-mutex";

/** A task that records when it starts and finishes, and finishes only when told. */
function gate(log: string[], name: string) {
	let open!: () => void;
	const opened = new Promise<void>((resolve) => (open = resolve));
	return {
		open,
		task: async (): Promise<string> => {
			log.push(`${name} start`);
			await opened;
			log.push(`${name} end`);
			return name;
		},
	};
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("KeyedMutex", () => {
	it("runs tasks on the same key one after another, in the order they asked", async () => {
		const mutex = new KeyedMutex();
		const log: string[] = [];
		const first = gate(log, "first");
		const second = gate(log, "second");
		const a = mutex.run(["note.md"], first.task);
		const b = mutex.run(["note.md"], second.task);
		await settle();
		expect(log).toEqual(["first start"]);
		first.open();
		second.open();
		expect(await Promise.all([a, b])).toEqual(["first", "second"]);
		expect(log).toEqual(["first start", "first end", "second start", "second end"]);
		expect(mutex.size).toBe(0);
	});

	it("runs tasks on different keys at the same time", async () => {
		const mutex = new KeyedMutex();
		const log: string[] = [];
		const first = gate(log, "a");
		const second = gate(log, "b");
		const runs = [mutex.run(["a.md"], first.task), mutex.run(["b.md"], second.task)];
		await settle();
		expect(log).toEqual(["a start", "b start"]);
		expect(mutex.size).toBe(2);
		first.open();
		second.open();
		await Promise.all(runs);
		expect(mutex.size).toBe(0);
	});

	it("never deadlocks two tasks that take the same keys in opposite orders", async () => {
		const mutex = new KeyedMutex();
		const log: string[] = [];
		const first = gate(log, "move a→b");
		const second = gate(log, "move b→a");
		const runs = [mutex.run(["a.md", "b.md"], first.task), mutex.run(["b.md", "a.md"], second.task)];
		await settle();
		expect(log).toEqual(["move a→b start"]);
		first.open();
		second.open();
		expect(await Promise.all(runs)).toEqual(["move a→b", "move b→a"]);
	});

	it("releases the keys when a task throws, and passes the error on", async () => {
		const mutex = new KeyedMutex();
		await expect(mutex.run(["x", "x"], () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
		expect(mutex.size).toBe(0);
		await expect(mutex.run(["x"], () => Promise.resolve(42))).resolves.toBe(42);
	});
});
