/**
 * Debian's chromium through playwright-core, never a downloaded browser: `.ci/run` installs the
 * `chromium` package when it is missing. The flags keep a headless start off the network (this
 * machine refuses the background connections chromium would otherwise open).
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** For `describe.skipIf(!hasChromium)`. */
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
