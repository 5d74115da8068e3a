import type { AskingSession, ToolPermissionAnswer, ToolPermissionRequest } from "../../../src/agent/agent-session";
import type { EditProposal, EditReview, ReviewDecision } from "../../../src/review/edit-proposal";
import type { GatePath, GateVault } from "../../../src/agent/gate/gate-ports";
import type { ApprovedWrite, JournaledWrite, WriteJournal } from "../../../src/journal/journal-writer";

const ROOT = "/vault";

/** A vault of texts under /vault; paths under a private folder are private; reads of them are counted. */
export class FakeGateVault implements GateVault {
	readonly files = new Map<string, string>();
	readonly reads: string[] = [];

	constructor(
		files: Record<string, string> = {},
		private readonly privateFolders: readonly string[] = ["Private"],
	) {
		for (const [path, text] of Object.entries(files)) this.files.set(path, text);
	}

	locate(path: string): Promise<GatePath> {
		const relative =
			path === ROOT
				? ""
				: path.startsWith(`${ROOT}/`)
					? path.slice(ROOT.length + 1)
					: path.startsWith("/")
						? undefined
						: path;
		if (relative === undefined || relative.split("/").includes("..")) return Promise.resolve({ kind: "outside" });
		if (this.privateFolders.some((folder) => relative === folder || relative.startsWith(`${folder}/`)))
			return Promise.resolve({ kind: "private" });
		return Promise.resolve({ kind: "visible", path: relative });
	}

	/** The vault's top always (its config folder), and any folder a private folder is in or around. */
	mayHoldPrivate(path: string): boolean {
		return (
			path === "" ||
			this.privateFolders.some(
				(folder) => folder === path || folder.startsWith(`${path}/`) || path.startsWith(`${folder}/`),
			)
		);
	}

	readFile(path: string): Promise<{ bytes: Uint8Array; text: string } | undefined> {
		this.reads.push(path);
		const text = this.files.get(path);
		return Promise.resolve(text === undefined ? undefined : { bytes: Buffer.from(text, "utf8"), text });
	}
}

/** A review that records each proposal and answers with `decide`. */
export class FakeReview implements EditReview {
	readonly proposals: EditProposal[] = [];

	constructor(
		private readonly decide: (proposal: EditProposal) => ReviewDecision = (proposal) => ({
			kind: "accepted",
			text: proposal.after,
			edited: false,
		}),
	) {}

	propose(proposal: EditProposal): Promise<ReviewDecision> {
		this.proposals.push(proposal);
		return Promise.resolve(this.decide(proposal));
	}
}

/** A journal that lists what it was told, in order. */
export class FakeWriteJournal implements WriteJournal {
	readonly events: string[] = [];
	/** The bytes each approved write was handed as its pre-image. */
	readonly before: (Uint8Array | undefined)[] = [];
	/** The turn each approved write was handed. */
	readonly turns: (string | undefined)[] = [];

	approved(write: ApprovedWrite): Promise<JournaledWrite> {
		this.before.push(write.before);
		this.turns.push(write.turn);
		this.events.push(`approved ${write.tool} ${write.path}`);
		return Promise.resolve({
			finished: (succeeded: boolean) => {
				this.events.push(`finished ${write.path} ${succeeded ? "ok" : "failed"}`);
				return Promise.resolve();
			},
		});
	}
}

/** A session whose user answers with `answer`, recording each question. */
export class FakeAskingSession implements AskingSession {
	readonly asked: ToolPermissionRequest[] = [];

	constructor(
		private readonly answer: (request: ToolPermissionRequest) => ToolPermissionAnswer,
		readonly sessionId: string | undefined = "session-1",
	) {}

	ask(request: ToolPermissionRequest): Promise<ToolPermissionAnswer> {
		this.asked.push(request);
		return Promise.resolve(this.answer(request));
	}
}
