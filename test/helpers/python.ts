/** Whether python3 runs here: tests that compare with the Python reference are skipped without it. */
import { spawnSync } from "node:child_process";

export const HAS_PYTHON3 = spawnSync("python3", ["--version"]).status === 0;
