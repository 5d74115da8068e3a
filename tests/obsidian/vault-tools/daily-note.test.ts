import { todaysDailyNote } from "../../../src/obsidian/vault-tools/daily-note";

function appWith(plugin: unknown) {
	return { internalPlugins: { getPluginById: (id: string) => (id === "daily-notes" ? plugin : null) } };
}

const formats: string[] = [];
const formatDate = (pattern: string): string => {
	formats.push(pattern);
	return pattern === "YYYY-MM-DD" ? "2026-11-27" : "27.11.2026";
};

describe("todaysDailyNote", () => {
	beforeEach(() => formats.splice(0));

	it("names today's note in the plugin's folder and format", () => {
		expect(
			todaysDailyNote(
				appWith({ enabled: true, instance: { options: { folder: " Journal/Daily/ ", format: "DD.MM.YYYY" } } }),
				formatDate,
			),
		).toBe("Journal/Daily/27.11.2026.md");
		expect(formats).toEqual(["DD.MM.YYYY"]);
	});

	it("uses the plugin's defaults: the vault root and YYYY-MM-DD", () => {
		expect(
			todaysDailyNote(appWith({ enabled: true, instance: { options: { folder: "", format: " " } } }), formatDate),
		).toBe("2026-11-27.md");
		expect(todaysDailyNote(appWith({ enabled: true }), formatDate)).toBe("2026-11-27.md");
	});

	it("answers undefined when the plugin is off, missing or unreadable, or the date is empty", () => {
		expect(todaysDailyNote(appWith({ enabled: false }), formatDate)).toBeUndefined();
		expect(todaysDailyNote(appWith({ enabled: "yes" }), formatDate)).toBeUndefined();
		expect(todaysDailyNote(appWith(null), formatDate)).toBeUndefined();
		expect(todaysDailyNote({}, formatDate)).toBeUndefined();
		expect(todaysDailyNote(appWith({ enabled: true }), () => "")).toBeUndefined();
	});
});
