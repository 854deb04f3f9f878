// End-to-end walk through the inspector in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core; no browser is downloaded). Run by InspectorBrowserTest with:
//   node inspector.e2e.mjs <base-url> <namespace> <key> <other-key> <screenshot-dir>
// Exits 0 when every check holds, 1 with a message otherwise.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

const [base, ns, key, otherKey, shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });
const executablePath = process.env.LYCHEE_CHROMIUM || '/usr/bin/chromium';

function check(cond, message) {
  if (!cond) {
    throw new Error('check failed: ' + message);
  }
}

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15000);
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));

  // The page's first request goes out before any key is entered and answers 401. Held back here,
  // it answers after the signed-in list is drawn: the page must drop it, not show its error.
  const keyless = '**/v1/namespaces';
  await page.route(keyless, async (r) => {
    if (!r.request().headers()['authorization']) {
      await new Promise((done) => setTimeout(done, 1500));
    }
    await r.continue();
  });

  // sign in with the key, by keyboard only
  await page.goto(base + '/');
  await page.getByRole('textbox', { name: 'API key' }).fill(key);
  await page.getByRole('textbox', { name: 'API key' }).press('Enter');
  await page.locator('#namespaces').waitFor();
  await page.waitForTimeout(2000);
  check(await page.locator('#namespaces').count() === 1, 'a late keyless 401 left the namespaces in place');
  await page.unroute(keyless);
  const nsLink = page.locator('#namespaces a', { hasText: ns });
  check(await nsLink.count() === 1, 'the namespace is listed');
  await page.screenshot({ path: shots + '/01-namespaces.png', fullPage: true });

  // namespace -> session
  await nsLink.focus();
  await page.keyboard.press('Enter');
  await page.locator('#sessions a').first().waitFor();
  await page.screenshot({ path: shots + '/02-namespace.png', fullPage: true });
  await page.locator('#sessions a').first().click();
  await page.locator('#boundary-chart').waitFor();
  const boundaries = await page.locator('tr.boundary').count();
  check(boundaries >= 1, 'segment boundaries are marked in the session');
  await page.screenshot({ path: shots + '/03-session.png', fullPage: true });

  // session -> segment -> records
  await page.locator('tbody a[href*="/segment/"]').first().click();
  await page.getByRole('heading', { name: 'Records' }).waitFor();
  const recordRows = await page.locator('table').nth(1).locator('tbody tr').count();
  check(recordRows >= 1, 'the segment shows its records');
  await page.screenshot({ path: shots + '/04-segment.png', fullPage: true });

  // recall playground
  await page.goto(base + '/#/ns/' + encodeURIComponent(ns) + '/recall');
  await page.getByLabel('Question').fill('What bicycle did Theo repair?');
  await page.getByRole('button', { name: 'Recall' }).click();
  await page.locator('#evidence tbody tr').first().waitFor();
  check(await page.locator('#plan').isVisible(), 'the plan is shown');
  check(await page.locator('#plan tbody tr').count() >= 1, 'the plan has routes');
  check(await page.locator('#channels .channel').count() >= 2, 'several channels show their candidates');
  check(await page.locator('#fused tbody tr').count() >= 1, 'the fused ranking is shown');
  check(await page.locator('#mmr tbody tr').count() >= 1, 'the MMR picks are shown');
  const evidenceText = await page.locator('#evidence').innerText();
  check(/bicycle/i.test(evidenceText), 'the final evidence holds the bicycle turn');
  check((await page.locator('#answer').innerText()).trim().length > 0, 'an answer is shown');
  await page.screenshot({ path: shots + '/05-recall.png', fullPage: true });

  // the evaluation chart of the result the server was given
  await page.goto(base + '/#/eval');
  await page.locator('#eval-chart').waitFor();
  check(await page.locator('#eval-chart path').count() === 2, 'one curve per system in the evaluation chart');
  await page.screenshot({ path: shots + '/07-evaluation.png', fullPage: true });

  // a segment an encoder outage left pending, retried from the namespace page
  await page.goto(base + '/#/ns/' + encodeURIComponent(ns));
  await page.locator('.state-pending').first().waitFor();
  check(/refused/.test(await page.locator('section[aria-label="Pending and failed segments"]').innerText()),
    'the pending segment shows its error');
  const retry = page.getByRole('button', { name: 'Retry pending segments' });
  await retry.focus();
  await page.keyboard.press('Enter');
  await page.getByText(/Retried: [1-9]\d* encoded/).waitFor();
  await page.getByText('Every segment is encoded.').waitFor();
  await page.screenshot({ path: shots + '/08-retry.png', fullPage: true });

  // a key scoped to another namespace sees nothing of this one
  await page.goto(base + '/');
  await page.getByRole('textbox', { name: 'API key' }).fill(otherKey);
  await page.getByRole('button', { name: 'Use key' }).click();
  await page.waitForFunction(() => document.querySelector('#namespaces') || document.querySelector('main p.muted'));
  const listed = await page.locator('#namespaces a', { hasText: ns }).count();
  check(listed === 0, 'the other key does not list the namespace');
  await page.goto(base + '/#/ns/' + encodeURIComponent(ns));
  await page.locator('[role=alert]').waitFor();
  check(/403/.test(await page.locator('[role=alert]').innerText()), 'the other key gets 403 on the namespace');
  await page.screenshot({ path: shots + '/06-other-key.png', fullPage: true });

  check(consoleErrors.length === 0, 'no script error: ' + consoleErrors.join('; '));
  console.log('inspector e2e: all checks passed');
} catch (e) {
  failed = true;
  console.error(e.message);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
