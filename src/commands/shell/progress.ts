/**
 * Progress on stderr: a live line with rate and ETA on a terminal, a plain line every few seconds
 * otherwise. Commands that talk to a provider pass their infrastructure error count, which the line
 * shows, so a run failing request after request says so while it runs.
 */
import type { CliIo } from "./io.ts";

export function progressReporter(
  io: CliIo,
  label: string,
  clock: () => number,
  /** What is counted: episodes, designs, datasets, rankings. */
  unit = "episodes",
  everyMs = 5000,
): (done: number, total: number, errors?: number) => void {
  const started = clock();
  let lastLine = started;
  return (done, total, errors) => {
    const now = clock();
    const finished = done === total;
    if (!io.isTty && !finished && now - lastLine < everyMs) return;
    lastLine = now;
    const seconds = (now - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? Math.round((total - done) / rate) : null;
    const width = 24;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const bar = io.isTty ? `[${"#".repeat(filled)}${".".repeat(width - filled)}] ` : "";
    const failed = errors === undefined ? "" : `, ${errors} infrastructure error(s)`;
    const text = `${label}: ${bar}${done}/${total} ${unit}, ${rate.toFixed(1)}/s${failed}${eta === null || finished ? "" : `, ETA ${eta}s`}`;
    io.err(io.isTty ? `\r${text}${finished ? "\n" : ""}` : `${text}\n`);
  };
}
