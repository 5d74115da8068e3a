/**
 * Why a target can be missed and what would close it, from the profiles (`npm run bench -- --profile DIR`, then
 * bench/profile-summary.ts) and the in-process timings the table shows. Printed under the table only for the rows
 * that miss in the run at hand; a row that meets its target prints nothing.
 */
export const MISSED_NOTES: Record<
	| "ping"
	| "journal"
	| "trivialToolOverhead"
	| "toolOverhead"
	| "throughput"
	| "read"
	| "selection"
	| "require"
	| "onload"
	| "size"
	| "inlineEditStreaming",
	string
> = {
	ping: "The session answers a ping without a promise hop and builds no trace events when tracing is off; compare the server CPU time per ping (measured in this run, below): when it is at the floor's, a missed median comes from scheduling on a loaded machine (see the load average above the table), and a run on a quiet machine settles it.",
	journal:
		"The journal appends the records of a burst in one write (at most 200 ms or 256 records apart; a change, an undo, every read and close write at once) and summarises a call's arguments when its record is written, judging each value once per batch; pre-images are kept before the write they protect; a full journal is compacted to half its bounds, so once per 5,000 calls. " +
		"What is left per call is spread thinly (a CPU profile: the call's start and end records, the batched encode and append, and the garbage of records kept until their batch is written), about 45 µs of host CPU per call over 20,000 pipelined calls, and the rows move by about ±0.04 between runs. " +
		"One call at a time (as these rows call), without the warm-up, the host's main thread spent about 30 µs more per call with a journal and its other threads 20–30 µs more; most of the other threads' time then was V8's optimizing compiler (perf: 90 % of their samples over 4,000 calls after 500), which the warm-up now lets finish before the rows; what stays (about 17 µs in one run) mostly went with --single-threaded-gc, so it is the garbage collector's helpers working on the records kept until their batch is written. With the warm-up the rows read 0.96–1.06× (read_note) and 1.01–1.05× (getDiagnostics) over four runs: the spread between runs is as large as the target. " +
		"Since then each record is encoded once and sealed in place (the seal is over the very JSON written, no copies of the record), a batch is appended through the callback API (half the CPU of fs.promises.appendFile), and a compaction, like a process's first measure of the journal, reads a call's or an undo's line only for its head (type, id, time) from its first bytes and copies the kept lines as bytes; changes and any other line are still parsed and checked. " +
		"In one process (bench/journal-work.ts, printed by `npm run bench:journal`) the journal's own CPU per call went from about 16 µs to 8–10 µs between compactions, and from 43–57 µs to 20–30 µs counting its compactions (one per 5,000 calls), the two builds alternating at load 14–15. " +
		"What is left per call: the seal (an HMAC, about 2.5 µs) and each record's JSON (about 1.5 µs), the argument summary (about 1.3 µs), the call's start and end (about 2 µs) and their garbage; a compaction still rewrites the kept half of the file (segments dropped whole would not). Measure with `npm run bench:journal 5` on a quiet machine: the round trips' spread between runs under load is far larger than the target.",
	trivialToolOverhead:
		"getWorkspaceFolders does no I/O: beyond a ping, the bridge only dispatches tools/call (the tool is async by contract, so two promise hops) and encodes a larger answer, which the floor sends canned. " +
		"Compare the server CPU per call (rows below): when it is close to the floor's, a miss is the wall-clock spread of a shared machine rather than protocol work, and the row flips between runs. " +
		"What would close the CPU gap that is left: let tools that answer at once return their result without a promise (ToolDefinition.call returns a Promise today).",
	toolOverhead:
		"getDiagnostics {uri} does real work per call: it confines the note's path (an existence check and a realpath), checks the note is fresh (a stat), diagnoses it, and the journal records the call. " +
		"The work taken off here is the host's extra CPU per call over a ping, measured with 20,000 calls and 16 in flight: CPU spent outside the round trip in those calls (such as a journal compaction) is taken off too, so the row reads lower when there is more of it; and one call at a time, after the server slept, the same work takes longer than with warm caches. " +
		"What would close it: fewer system calls per call (the realpath of folders under the vault root cached and invalidated by the folder watcher, without giving up the at-once re-check that keeps a swapped folder from being read through) and a leaner journal record (see the journal rows). Tried in issue 14 and not kept: folder real paths held while the watcher reported no change took this row to 1.03–1.19× (against 1.38–1.44× in the same minute), but then a review's accept and openDiff's FILE_SAVED acted on a folder swapped for a link in the same turn (tests/security/write-race.test.ts failed), and with FILE_SAVED the CLI writes the file itself.",
	throughput:
		"The rate is set by the server's CPU per ping (measured in this run, below) and by how the two cores are shared between this client, the servers and whatever else runs: a miss with the CPU per ping at the floor's is the machine, not the bridge.",
	read:
		"The floor sends bytes it prepared in advance (one 1 MiB copy). The bridge reads the note with one synchronous read (after a stat for the size limit), checks it is UTF-8 with buffer.isUtf8 and writes the answer's JSON string straight from the file's bytes: the bytes are read as Latin-1, escaped by JSON.stringify and written back as Latin-1, so the text is never decoded (EncodedJson; sent as one text frame). " +
		"What is left is that escaping: JSON.stringify of a 1 MiB string costs about 30 instructions per byte in Node 20's V8 (valgrind: 30M instructions per MiB; the old decode + stringify + encode of an ASCII note cost about as much, 35M, so on this ASCII note the change gains little, while with non-ASCII text it halves the CPU), plus the read and two 1 MiB copies; the server CPU per read (row above) shows the bridge's share. " +
		"What would close it: a faster escaper (V8's newer JSON.stringify fast path, Node 22 and later), or an answer cached per file stamp (inode, size, modification time) for notes read again unchanged.",
	selection:
		"Both sides start from a line on stdin and answer it with a line on stdout. The headless `select` holds the note's text, as Obsidian's editor does, and uses it again with no system call while the vault's watcher reports no change (else one lstat per folder on the way and of the note); the notifier sends at once after the privacy check, which reuses that location; the privacy settings' listing of the vault's top follows the same watcher (no stat per turn); the notification is written by its own encoder, once for all clients. The floor only writes canned bytes. " +
		"Before those three changes (issue 14) the row read 1.48–1.63× with the warm-up; each of them took about 0.05–0.1× off in A/B runs here, where a system call costs about 3–4 µs and more when the caches are cold between round trips. " +
		"In a vault with a config folder the privacy settings still stat its data.json and app.json once per turn (changes apply at once), and with private tags the note is stat'ed per selection (tags judged at once); the bench's vault has neither, so this row does not show them. " +
		"What would close it: less work per push in the editor stand-in and the notifier (a profile: `node --cpu-prof` on the host while bench/wire-only.ts runs).",
	require:
		"The bridge and Claude's vault tools (server, ws, the IDE tools) load with a dynamic import when the layout is ready (src/obsidian/bridge/bridge-runtime.ts), so Obsidian's load of the plugin no longer runs their module top levels. What is left is compiling main.js itself: V8 pre-parses all of it however little runs, and that cost grows with its size (valgrind, built-ins already loaded: 70M of the 77M instructions of the require are the compile of the 372 KiB bundle; the 161 KiB bundle before the vault tools took 26M to compile). The settings tab loads the doctor (and with it ws) only when Check connection is pressed. " +
		"Since issue 31 the views' modules (the panel, the activity view, the review) are initialised when Obsidian first makes their view and the inline edit's controller with the first editor, so the code run at load is 106 KB of modules (231 KB before); what is left is V8 pre-parsing all of main.js, which only a smaller file lowers. " +
		"What would close it: a smaller main.js (the plugin reads YAML with Obsidian's own parser since issue 14, so no YAML library is bundled; the agent panel adds about 150 KB).",
	onload: "onload registers the settings, commands, status bar, views and the editor tracker; the server starts only after layout ready. A miss here on a loaded machine is scheduling: compare the CPU-time row.",
	size:
		"main.js grew with Claude's vault tools (issue 10) and the agent panel (issue 18, about 81 KB); the YAML library left it in issue 14 (the plugin uses Obsidian's parser). tests/release/plugin-bundle.test.ts holds the bundle without the panel to the pre-issue-14 size and the panel to its own budget. " +
		"What would close it: fewer features in the plugin build, or lazily fetched parts; the size also sets the compile cost of require(main.js) (see that row).",
	inlineEditStreaming:
		"A chunk's work is the word diff of the proposal's unsettled end against a window of the passage (what lies well behind it is settled and not compared again), the editor's decorations for the passage, and CodeMirror's DOM update of the changed stretch; the panel draws nothing while Claude writes. " +
		"A forced garbage collection between runs made the next run's chunks several times slower (V8 recompiling what it had thrown away), so none is forced. In jsdom every DOM change costs far more than in a browser; the rest of a miss is the shared machine (compare the wall-clock and the load average). " +
		"What would close it: decorations for the settled pieces kept from one chunk to the next instead of built again, and fewer DOM nodes per change (one element for an insertion and its controls).",
};
