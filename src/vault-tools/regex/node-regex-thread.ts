import type { RegexThread, RegexThreadEvents } from "./regex-thread";
import { NODE_REGEX_WORKER_SOURCE, type RegexBatchReply } from "./regex-worker-script";

/**
 * A regex thread on node:worker_threads (the headless host, the stdio server, tests). The module is loaded only
 * here, at the first regex search: Obsidian's renderer, which uses Web Workers instead, never loads it.
 */
export async function nodeRegexThread(events: RegexThreadEvents): Promise<RegexThread> {
	const { Worker } = await import("node:worker_threads");
	// stdout and stderr are the thread's own streams, never the process's (the stdio server's stdout is its
	// protocol). Nothing reads them: the script writes nothing, and a stream being read would keep the process alive.
	const worker = new Worker(NODE_REGEX_WORKER_SOURCE, { eval: true, stdout: true, stderr: true });
	worker.unref();
	if (events.started) worker.once("online", () => events.started?.());
	let ended = false;
	worker.on("message", (reply: RegexBatchReply) => events.reply(reply));
	worker.on("error", (error) => {
		ended = true;
		events.failed(error);
	});
	worker.on("exit", (code) => {
		if (!ended) events.failed(new Error(`the regex worker stopped (exit code ${code})`));
		ended = true;
	});
	return {
		post: (request) => worker.postMessage(request),
		busy: (busy) => (busy ? worker.ref() : worker.unref()),
		terminate: () => {
			ended = true;
			void worker.terminate();
		},
	};
}
