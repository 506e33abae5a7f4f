import { existsSync } from 'node:fs';

/** Debian's Chromium: Playwright's own browser download is not reachable from this kind of machine. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What the tests drive: Debian's build of Chromium's headless shell, the same engine without the full browser's
 * layers, which ran the same journeys on a quarter less CPU (decision 0303). The benches keep the full browser: they
 * measure what a person's browser paints.
 */
export const TEST_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

export const CHROMIUM_MISSING = `Chromium's headless shell was not found at ${TEST_CHROMIUM}.
Install it with:   sudo apt-get update && sudo apt-get install -y chromium-headless-shell
(or set CHROMIUM_PATH to a Chromium or Chrome binary). Do not use 'npx playwright install'.`;

export const hasTestChromium = () => existsSync(TEST_CHROMIUM);
