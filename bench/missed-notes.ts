/**
 * Why a target can be missed and what would close it, from the profiles (`npm run bench -- --profile DIR`, then
 * bench/profile-summary.ts) and the in-process timings the table shows. Printed under the table only for the rows
 * that miss in the run at hand; a row that meets its target prints nothing.
 */
export const MISSED_NOTES: Record<"ping" | "trivialToolOverhead" | "toolOverhead" | "throughput" | "read" | "selection" | "require" | "onload", string> = {
	ping:
		"The session answers a ping without a promise hop and builds no trace events when tracing is off; compare the server CPU time per ping (measured in this run, below): when it is at the floor's, a missed median comes from scheduling on a loaded machine (see the load average above the table), and a run on a quiet machine settles it.",
	trivialToolOverhead:
		"getWorkspaceFolders does no I/O: beyond a ping, the bridge only dispatches tools/call (the tool is async by contract, so two promise hops) and encodes a larger answer, which the floor sends canned. " +
		"Compare the server CPU per call (rows below): when it is close to the floor's, a miss is the wall-clock spread of a shared machine rather than protocol work, and the row flips between runs. " +
		"What would close the CPU gap that is left: let tools that answer at once return their result without a promise (ToolDefinition.call returns a Promise today).",
	toolOverhead:
		"The protocol part is near the floor: the server CPU per ping is at the floor's, and per getWorkspaceFolders call (a tool with no I/O) close to it (rows below). getDiagnostics {uri} does real work per call: it confines the note's path (a realpath), checks the note is fresh (a stat) and diagnoses it. " +
		"The work taken off here is the host's extra CPU per call over a ping, measured with 16 calls in flight (warm caches); one call at a time, after the server slept, the same work takes longer (in process the tool takes about twice as long after a 1 ms idle pause as in a tight loop), and that difference is what is left. " +
		"What would close it: less work per call in the diagnostics source (cache the realpath of folders under the vault root, invalidated by the folder watcher; skip the freshness stat while the watcher reports no change).",
	throughput:
		"The rate is set by the server's CPU per ping (measured in this run, below) and by how the two cores are shared between this client, the servers and whatever else runs: a miss with the CPU per ping at the floor's is the machine, not the bridge.",
	read:
		"The floor sends bytes it prepared in advance (one 1 MiB copy). The bridge does the real work: stat + fs.promises.readFile (read in chunks on the thread pool, ~3–5 ms), a fatal TextDecoder to refuse non-UTF-8 (~7 ms), JSON.stringify of the 1 MiB text (~6 ms) and its UTF-8 encoding for the socket (~3 ms); the client's own decode and JSON.parse are the same on both sides. " +
		"What would close it: read with one synchronous read of the known size, validate with buffer.isUtf8, and write the answer's bytes straight from the file's bytes (escape only quotes, backslashes and control characters) instead of decoding to a string and re-encoding it — a change in the vault adapter and the folder vault, with the session accepting a pre-encoded result.",
	selection:
		"Both sides start from a line on stdin and answer it with a line on stdout. The headless `select` resolves the note's path (realpath), reads the note from disk to cut the selected text, builds the selection and its dedupe key, then the notifier broadcasts; the floor only writes canned bytes. " +
		"The server CPU per push (rows below) is the host's own share. In the host's profile of the `select` path the largest parts are the realpath in VaultPaths.resolve (libc walks every component of the path with a syscall; syscalls are dear on this machine — writev is the top self-time item of both processes), the broadcast's socket write and the note's read. In Obsidian the editor already holds the text, so that path has no disk read. " +
		"What would close it: resolve paths below the vault root with the root's cached real path and one lstat per component under it (keeping the on-disk spelling that privacy checks need on case-insensitive file systems), and let the headless editor stand-in keep the active note's text (re-read on the folder watcher's change event) instead of reading it per `select`.",
	require:
		"Evaluating main.js also loads the Node built-ins the server needs (http, https, net, tls, zlib, crypto, stream: about 10–14 ms of CPU in a fresh Node process; `ws` requires https/tls/zlib for its client and permessage-deflate even though the server uses neither), then runs every module's top level. " +
		"What would close it: keep the server (ws, http, the bridge core) out of the module's top level and require it when the layout is ready, so Obsidian's load of the plugin evaluates only the plugin shell.",
	onload:
		"onload registers the settings, commands, status bar, views and the editor tracker; the server starts only after layout ready. A miss here on a loaded machine is scheduling: compare the CPU-time row.",
};
