/**
 * What the model reads about the vault tools before any call: MCP `instructions` in the `initialize` answer. Short,
 * since it counts against the context as the tool schemas do (tests/protocol/mcp-session.test.ts keeps both together
 * within 12,000 characters).
 */
export const VAULT_TOOLS_INSTRUCTIONS = [
	"Tools for the user's Obsidian vault. For notes in this vault, prefer them to your own Read, Edit, Write, Grep and Glob:",
	"move_note rewrites every link to the moved note; create_note, edit_note and set_properties are shown to the user for review",
	"in Obsidian, and the answer says whether they were accepted; notes the user made private are left out and answer as missing",
	"(do not open them another way).",
	"Paths are vault-relative (Projects/Plan.md) or a note name as in a wikilink (Plan). Line numbers are 1-based everywhere.",
	"Lists are paged: pass the cursor at the end of an answer to get the next page (limit: default 20, at most 100).",
	"A long text is cut; read_note continues from the offset it gives.",
	"read_note and outline give the note's version: pass it to edit_note, which then refuses to edit a note changed since",
	"you read it (read it again and retry). Edits target a heading path (Note > Section), a ^blockid, frontmatter or",
	"{oldText}; a missing or ambiguous target changes nothing.",
].join(" ");
