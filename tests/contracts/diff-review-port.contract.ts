import type { DiffReviewPort, PendingReview } from "../../src/review/edit-proposal";
import type { VaultLocation } from "../../src/vault/vault-paths";

/** One review host under test: the port, over a vault holding the given notes. */
export interface DiffReviewPortFixture {
	port: DiffReviewPort;
	location: (relative: string) => VaultLocation;
	dispose: () => Promise<void>;
}

export type DiffReviewPortFactory = (notes: Record<string, string>) => Promise<DiffReviewPortFixture>;

const notes = { "A.md": "alpha\n", "B.md": "beta\n" };

/** What every DiffReviewPort means: the same cases against the headless host's list and Obsidian's review tabs. */
export function diffReviewPortContract(name: string, factory: DiffReviewPortFactory): void {
	describe(`DiffReviewPort contract: ${name}`, () => {
		let fixture: DiffReviewPortFixture | undefined;
		const open = async (): Promise<DiffReviewPortFixture> => {
			fixture = await factory(notes);
			return fixture;
		};
		afterEach(async () => {
			await fixture?.dispose();
			fixture = undefined;
		});

		let nextId = 1;
		const review = (
			location: VaultLocation,
			tabName: string,
			overrides: Partial<PendingReview> = {},
		): PendingReview => ({
			id: nextId++,
			title: tabName,
			note: location,
			before: "alpha\n",
			after: "alpha, edited\n",
			isNewFile: false,
			sessionId: 1,
			proposer: { surface: "ide", client: "claude-code", session: 1, tool: "openDiff" },
			since: new Date(0),
			...overrides,
		});

		it("lists no review before one is shown, and a shown review by its tab name", async () => {
			const { port, location } = await open();
			expect(port.openTitles()).toEqual([]);
			await port.show(review(location("A.md"), "tab A"));
			expect(port.openTitles()).toEqual(["tab A"]);
		});

		it("shows a new review under a tab name already shown in the same place, and keeps other tabs", async () => {
			const { port, location } = await open();
			await port.show(review(location("A.md"), "tab A"));
			await port.show(review(location("B.md"), "tab B", { before: "beta\n", after: "beta!\n" }));
			await port.show(review(location("A.md"), "tab A", { after: "alpha, again\n" }));
			expect([...port.openTitles()].sort()).toEqual(["tab A", "tab B"]);
		});

		it("closes one tab by name; closing a tab that is not shown changes nothing and does not fail", async () => {
			const { port, location } = await open();
			await port.show(review(location("A.md"), "tab A"));
			await port.show(review(location("B.md"), "tab B", { before: "beta\n" }));
			port.close("tab A");
			port.close("never shown");
			expect(port.openTitles()).toEqual(["tab B"]);
		});

		it("shows a review of a note that does not exist yet", async () => {
			const { port, location } = await open();
			await port.show(review(location("New.md"), "tab new", { before: "", after: "fresh\n", isNewFile: true }));
			expect(port.openTitles()).toEqual(["tab new"]);
		});

		it("refresh is harmless for a note that is not open, or not in the vault", async () => {
			const { port, location } = await open();
			expect(() => port.refresh(location("B.md"))).not.toThrow();
			expect(() => port.refresh(location("Missing.md"))).not.toThrow();
			expect(port.openTitles()).toEqual([]);
		});
	});
}
