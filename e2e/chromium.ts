import { existsSync } from 'node:fs';

/** Debian's Chromium: Playwright's own browser download is not reachable from this kind of machine. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_MISSING = `Chromium was not found at ${CHROMIUM}.
Install it with:   sudo apt-get update && sudo apt-get install -y chromium
(or set CHROMIUM_PATH to a Chromium or Chrome binary). Do not use 'npx playwright install'.`;

export const hasChromium = () => existsSync(CHROMIUM);
