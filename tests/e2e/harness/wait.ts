export interface PollOptions {
	timeoutMs: number;
	intervalMs?: number;
	describe: () => string;
}

export async function pollUntil<T>(probe: () => T | undefined, options: PollOptions): Promise<T> {
	const deadline = Date.now() + options.timeoutMs;
	for (;;) {
		const value = probe();
		if (value !== undefined) return value;
		if (Date.now() >= deadline) {
			throw new Error(`Timed out after ${options.timeoutMs} ms waiting for ${options.describe()}`);
		}
		await delay(options.intervalMs ?? 50);
	}
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
