import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { artifactsDir, launchBrowser, skipWithoutBrowser } from '../support/browser.js';

// The browser the page tests use starts, shows a page and takes a screenshot: when this fails,
// the other browser tests' failures are about the machine, not about fleetplan's pages.
test('headless Chromium starts and takes a screenshot', { skip: skipWithoutBrowser() }, async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setContent('<main><h1>fleetplan</h1><button>ok</button></main>');
    assert.equal(await page.locator('h1').textContent(), 'fleetplan');
    const shot = await page.screenshot({ path: join(artifactsDir(), 'chromium-smoke.png') });
    assert.ok(shot.length > 100);
  } finally {
    await browser.close();
  }
});
