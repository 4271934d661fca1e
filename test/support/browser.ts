/**
 * Headless Chromium for the tests that look at a page (Debian's `chromium`, driven by
 * playwright-core; ADR 0230). `.ci/run` installs the package; on a machine without it the test is
 * skipped with the reason, except under CI=true, where it fails.
 *
 * Screenshots go to `test-artifacts/` at the project root (ignored by git), so that a reviewer and
 * CI can look at what the test saw.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';

/** Where Debian installs Chromium; FLEETPLAN_CHROMIUM names another binary. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.FLEETPLAN_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}

/**
 * The `skip` option for a browser test: a reason when Chromium is missing, false when it is there
 * or when CI=true (where a missing browser must fail the test, not skip it).
 */
export function skipWithoutBrowser(): string | false {
  if (chromiumPath() !== undefined) return false;
  const ci = process.env.CI;
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') return false;
  return 'Chromium not installed (apt-get install chromium; .ci/run installs it)';
}

/**
 * Launch headless Chromium with the flags that keep it off the network it cannot reach (no
 * background networking, no component updates) and a fresh profile.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) {
    throw new Error('Chromium not found at /usr/bin/chromium: install it with `apt-get install chromium` (or set FLEETPLAN_CHROMIUM)');
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The project's `test-artifacts/` folder (created), where tests keep screenshots. */
export function artifactsDir(): string {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const dir = join(root, 'test-artifacts');
  mkdirSync(dir, { recursive: true });
  return dir;
}
