import { resolveObjectURL } from "node:buffer";
import { Worker as NodeWorker } from "node:worker_threads";

/**
 * A stand-in for the browser's Worker (Node has none), for code written for Obsidian's renderer: it loads the
 * script behind a Blob URL as a browser would, and runs it in a Node worker thread with a Web Worker's
 * `self.onmessage` / `self.postMessage`. Electron itself is not run by any test.
 */
export class NodeBackedWebWorker {
	static readonly started: NodeBackedWebWorker[] = [];
	readonly url: string;
	terminated = false;
	onmessage: ((event: { data: unknown }) => void) | null = null;
	onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
	private readonly thread: Promise<NodeWorker>;

	constructor(url: string) {
		this.url = url;
		NodeBackedWebWorker.started.push(this);
		const blob = resolveObjectURL(url);
		if (!blob) throw new Error(`no Blob behind ${url}`);
		this.thread = blob.text().then((script) => {
			const webGlobals =
				'const { parentPort } = require("node:worker_threads"); globalThis.self = { postMessage: (data) => parentPort.postMessage(data), set onmessage(handler) { parentPort.on("message", (data) => handler({ data })); } };';
			const worker = new NodeWorker(`${webGlobals}\n${script}`, { eval: true });
			worker.on("message", (data: unknown) => this.onmessage?.({ data }));
			worker.on("error", (error) => this.onerror?.({ message: error.message, preventDefault: () => undefined }));
			return worker;
		});
	}

	postMessage(data: unknown): void {
		void this.thread.then((worker) => worker.postMessage(data));
	}

	terminate(): void {
		this.terminated = true;
		void this.thread.then((worker) => worker.terminate());
	}

	/** Makes it the global `Worker` until the returned function is called. */
	static install(): () => void {
		Object.defineProperty(globalThis, "Worker", { value: NodeBackedWebWorker, configurable: true, writable: true });
		return () => Reflect.deleteProperty(globalThis, "Worker");
	}
}
