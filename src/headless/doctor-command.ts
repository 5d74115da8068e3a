import { runDoctor, type DoctorInputs } from "../ide/doctor/doctor";
import { formatDoctorReport, type DoctorLine } from "../ide/doctor/doctor-line";
import type { HeadlessCommand } from "./command-loop";

/**
 * `doctor`: the settings tab's "Check connection", as text, then `more` (the vault tools' endpoint checks). `inputs`
 * is read when the command runs.
 */
export function doctorCommand(
	inputs: () => DoctorInputs | Promise<DoctorInputs>,
	more: () => Promise<DoctorLine[]> = async () => [],
): HeadlessCommand {
	return {
		usage: "doctor",
		summary:
			"check why /ide might not list this vault, how to start Claude Code here, and the vault tools' endpoints",
		run: async () => formatDoctorReport([...(await runDoctor(await inputs())), ...(await more())]),
	};
}
