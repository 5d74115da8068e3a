/**
 * How Obsidian reads a note's tags, one row per behaviour with the help page that says so: the table the headless
 * tag reader, the fake metadata cache and the vault tools' index are all checked against (issue 11 finding 4).
 */
export interface TagRow {
	/** What Obsidian does, with the help page that says so. */
	behaviour: string;
	text: string;
	/** The tags Obsidian reads, without `#`, lower-cased. */
	tags: string[];
}

const TAGS_HELP = "help.obsidian.md/tags";
const PROPERTIES_HELP = "help.obsidian.md/properties";

export const TAG_ROWS: TagRow[] = [
	{
		behaviour: `a block list item with a YAML comment after it (${PROPERTIES_HELP}: YAML)`,
		text: "---\ntags:\n  - private # why\n---\nBody.\n",
		tags: ["private"],
	},
	{
		behaviour: `comment and blank lines inside a block list (${PROPERTIES_HELP}: YAML)`,
		text: "---\ntags:\n  - open\n  # more below\n\n  - private\n---\n",
		tags: ["open", "private"],
	},
	{
		behaviour: `a flow list over two lines (${PROPERTIES_HELP}: YAML)`,
		text: "---\ntags: [open,\n  private]\n---\n",
		tags: ["open", "private"],
	},
	{
		behaviour: `a folded scalar of tags separated by spaces (${TAGS_HELP}: tags property)`,
		text: "---\ntags: >-\n  open\n  private\n---\n",
		tags: ["open", "private"],
	},
	{
		behaviour: `a quoted key is the same key (${PROPERTIES_HELP}: YAML)`,
		text: '---\n"tags": private\n---\n',
		tags: ["private"],
	},
	{
		behaviour: `space before the colon (${PROPERTIES_HELP}: YAML)`,
		text: "---\ntags : private\n---\n",
		tags: ["private"],
	},
	{
		behaviour: `the key in another case: Tags (${TAGS_HELP}: tags property, matched case-insensitively)`,
		text: "---\nTags: private\n---\n",
		tags: ["private"],
	},
	{
		behaviour: `the older singular key tag (${PROPERTIES_HELP}: deprecated tag property)`,
		text: "---\ntag: private\n---\n",
		tags: ["private"],
	},
	{
		behaviour: `comma-separated tags with # (${TAGS_HELP}: tags property)`,
		text: '---\ntags: "open, #private"\n---\n',
		tags: ["open", "private"],
	},
	{
		behaviour: `a block list (${TAGS_HELP}: tags property)`,
		text: "---\ntags:\n- open\n- Private\n---\n",
		tags: ["open", "private"],
	},
	{
		behaviour: `a tag after a code span that holds a backtick (${TAGS_HELP}: not in code; CommonMark code spans)`,
		text: "Body `` ` `` #private and `x`.\n",
		tags: ["private"],
	},
	{
		behaviour: `a tag after a double-backtick span (${TAGS_HELP}: not in code)`,
		text: "Run ``a`b`` then #private\n",
		tags: ["private"],
	},
	{
		behaviour: `a nested tag (${TAGS_HELP}: nested tags)`,
		text: "Filed under #private/health.\n",
		tags: ["private/health"],
	},
	{ behaviour: `no tag inside inline code (${TAGS_HELP}: not in code)`, text: "Use `#private` to hide.\n", tags: [] },
	{
		behaviour: `no tag inside a fenced code block (${TAGS_HELP}: not in code)`,
		text: "```\n#private\n```\nText.\n",
		tags: [],
	},
	{ behaviour: `no all-digit tag (${TAGS_HELP}: tag format)`, text: "Year #2024 done.\n", tags: [] },
	{ behaviour: `no tag inside a word (${TAGS_HELP}: tag format)`, text: "issue#private here\n", tags: [] },
];

/**
 * Notes whose `#private` Obsidian's own reading is uncertain about or misses (a comment, a byte order mark, broken
 * YAML): the project's tag reader (`noteTags`) counts each as private, and every surface that decides privacy must
 * agree with it (issue 14: the vault tools' folder fallback read them with a reader of its own and served them).
 */
export const CAUTIOUS_ROWS: { behaviour: string; text: string }[] = [
	{ behaviour: "a tag in a %% comment", text: "Text %% #private %% more.\n" },
	{ behaviour: "a tag in an HTML comment", text: "Text <!-- #private --> more.\n" },
	{ behaviour: "a tag in a %% comment block over several lines", text: "%%\n#private\n%%\nText.\n" },
	{
		behaviour: "a tags key written twice (invalid YAML, no properties in Obsidian)",
		text: "---\ntags: open\ntags: private\n---\n",
	},
	{ behaviour: "a YAML error after the tags", text: "---\ntags: [private]\nbad: : :\n---\n" },
	{ behaviour: "a tag right after another tag", text: "Filed #work#private\n" },
	{ behaviour: "frontmatter after a byte order mark", text: "\uFEFF---\ntags: private\n---\n" },
	{ behaviour: "a flow list after a byte order mark", text: "\uFEFF---\ntags: [private]\n---\nBody.\n" },
	{ behaviour: "a tag ended by punctuation outside ASCII", text: "Filed #private」 here\n" },
];
