/**
 * Why a target can be missed and what would close it, from the profiles (`npm run bench -- --profile DIR`, then
 * bench/profile-summary.ts) and the in-process timings the table shows. Printed under the table only for the rows
 * that miss in the run at hand; a row that meets its target prints nothing.
 */
export const MISSED_NOTES: Record<"ping" | "journal" | "trivialToolOverhead" | "toolOverhead" | "throughput" | "read" | "selection" | "require" | "onload" | "size", string> = {
	ping:
		"The session answers a ping without a promise hop and builds no trace events when tracing is off; compare the server CPU time per ping (measured in this run, below): when it is at the floor's, a missed median comes from scheduling on a loaded machine (see the load average above the table), and a run on a quiet machine settles it.",
	journal:
		"The journal now appends the records of a burst in one write (at most 200 ms or 256 records apart; a change, an undo, every read and close write at once) and summarises a call's arguments when its record is written, not while the call runs; pre-images are kept before the write they protect. " +
		"In a profile of the journaling host after that, the appends are about 3 % of its busy time and the argument summaries about 8 % (their privacy decision: the index's link resolution and the private-tag check, which reads the note's tags afresh); the summary no longer delays the answer, but its CPU is still spent (the server CPU per call is about 1.2× the host without a journal). " +
		"What would close it: judge a listed note with the tags the vault tools' index holds (as the tools themselves do) instead of reading them again, and measure on a quiet machine (`npm run bench:journal 5`: the medians moved by ±10 % between runs on the loaded 2-core machine).",
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
		"The floor sends bytes it prepared in advance (one 1 MiB copy). The bridge reads the note with one synchronous read (after a stat for the size limit), checks it is UTF-8 with buffer.isUtf8 and writes the answer's JSON string straight from the file's bytes: the bytes are read as Latin-1, escaped by JSON.stringify and written back as Latin-1, so the text is never decoded (EncodedJson; sent as one text frame). " +
		"What is left is that escaping: JSON.stringify of a 1 MiB string costs about 30 instructions per byte in Node 20's V8 (valgrind: 30M instructions per MiB; the old decode + stringify + encode of an ASCII note cost about as much, 35M, so on this ASCII note the change gains little, while with non-ASCII text it halves the CPU), plus the read and two 1 MiB copies; the server CPU per read (row above) shows the bridge's share. " +
		"What would close it: a faster escaper (V8's newer JSON.stringify fast path, Node 22 and later), or an answer cached per file stamp (inode, size, modification time) for notes read again unchanged.",
	selection:
		"Both sides start from a line on stdin and answer it with a line on stdout. The headless `select` resolves the note's path once (VaultPaths.resolve: an existence check and a realpath), cuts the selected text from the note (kept by the editor stand-in while the file's stamp is unchanged: one stat instead of a read), and the notifier sends the selection at once (selectionEnded: no debounce timer) after the privacy check, which reuses that location; then the socket write. The floor only writes canned bytes. " +
		"In the host's profile (bench/select-cost.ts under --cpu-prof) the realpath and existence check are about a sixth of the path, the stat a fourteenth, the socket write (writev) about a quarter; the server CPU per push (row above) is the host's own share. " +
		"What would close it: fewer system calls per selection, e.g. a cached real path for the active note while the folder watcher reports no change.",
	require:
		"The bridge and Claude's vault tools (server, ws, the IDE tools) load with a dynamic import when the layout is ready (src/obsidian/bridge-runtime.ts), so Obsidian's load of the plugin no longer runs their module top levels. What is left is compiling main.js itself: V8 pre-parses all of it however little runs, and that cost grows with its size (valgrind, built-ins already loaded: 70M of the 77M instructions of the require are the compile of the 372 KiB bundle; the 161 KiB bundle before the vault tools took 26M to compile). The settings tab loads the doctor (and with it ws) only when Check connection is pressed. " +
		"What would close it: a smaller main.js (the plugin reads YAML with Obsidian's own parser since issue 14, so no YAML library is bundled; the agent panel adds about 81 KB). The child that measures this is started from the running bench script, so its figure in the full run also carries that script's loaded modules: `node scripts/run-bench.mjs bench/plugin-load-only.ts` measures the same in a light host.",
	onload:
		"onload registers the settings, commands, status bar, views and the editor tracker; the server starts only after layout ready. A miss here on a loaded machine is scheduling: compare the CPU-time row.",
	size:
		"main.js grew with Claude's vault tools (issue 10) and the agent panel (issue 18, about 81 KB); the YAML library left it in issue 14 (the plugin uses Obsidian's parser). tests/release/plugin-bundle.test.ts holds the bundle without the panel to the pre-issue-14 size and the panel to its own budget. " +
		"What would close it: fewer features in the plugin build, or lazily fetched parts; the size also sets the compile cost of require(main.js) (see that row).",
};
