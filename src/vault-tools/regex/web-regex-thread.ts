import type { RegexThread, RegexThreadEvents } from "./regex-thread";
import { WEB_REGEX_WORKER_SOURCE, type RegexBatchReply } from "./regex-worker-script";

/**
 * A regex thread as a Web Worker from a Blob URL: what Obsidian's renderer can start (Electron's renderer refuses
 * node:worker_threads: "The V8 platform used by this instance of Node does not support creating Workers").
 */
export function webRegexThread(events: RegexThreadEvents): RegexThread {
	const url = URL.createObjectURL(new Blob([WEB_REGEX_WORKER_SOURCE], { type: "text/javascript" }));
	let worker: Worker;
	try {
		worker = new Worker(url);
	} catch (error) {
		URL.revokeObjectURL(url);
		throw error;
	}
	let ended = false;
	worker.onmessage = (event: MessageEvent<RegexBatchReply>) => events.reply(event.data);
	worker.onerror = (event: ErrorEvent) => {
		event.preventDefault();
		if (ended) return;
		ended = true;
		events.failed(new Error(event.message || "the regex worker could not start"));
	};
	return {
		post: (request) => worker.postMessage(request),
		busy: () => undefined,
		terminate: () => {
			ended = true;
			worker.terminate();
			URL.revokeObjectURL(url);
		},
	};
}

/** Whether this runtime has Web Workers and Blob URLs (Obsidian's renderer does; Node does not). */
export function canStartWebWorkers(): boolean {
	return typeof Worker === "function" && typeof Blob === "function" && typeof URL.createObjectURL === "function";
}
