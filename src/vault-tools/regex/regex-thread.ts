import type { RegexBatchReply, RegexBatchRequest } from "./regex-worker-script";

/** What a regex thread tells its owner. */
export interface RegexThreadEvents {
	reply(reply: RegexBatchReply): void;
	/** The thread could not start, threw outside a request, or stopped on its own: it is unusable. */
	failed(error: Error): void;
	/** The thread runs (optional: the stdio server sets its heap flags again, src/shared/v8-heap-flags.ts). */
	started?(): void;
}

/** A worker running regex-worker-script: the main thread only posts texts to it and reads answers. */
export interface RegexThread {
	post(request: RegexBatchRequest): void;
	/** Whether a search waits for this thread: a Node thread then keeps the process alive, an idle one never does. */
	busy(busy: boolean): void;
	/** The hard stop: ends the thread even in the middle of a match. */
	terminate(): void;
}

/** Starts one thread; throws (or rejects) when this runtime cannot start one. */
export type RegexThreadFactory = (events: RegexThreadEvents) => RegexThread | Promise<RegexThread>;
