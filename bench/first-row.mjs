// The first history row of a wallet page, as the browser saw it: the time from the navigation's start to
// the first frame painted with a row visible, read by the page itself (performance.now() counts from the
// navigation's start). Playwright's own wait for the row polls at growing intervals (up to 100s of ms
// between looks), so the time it returns includes up to a few hundred ms the person at the screen never
// waited; it is kept beside the page's figure, not instead of it.

const ROW = 'li[data-tx-hash]';

/** Runs in the page before any of its scripts: notes the first frame painted after a row became visible. */
function watchFirstRow(selector) {
  const seen = () => {
    const row = document.querySelector(selector);
    return row !== null && row.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  };
  const observer = new MutationObserver(() => {
    if (!seen()) return;
    observer.disconnect();
    // The frame that shows it: after the next paint (rAF runs before it, the timer after it).
    requestAnimationFrame(() => setTimeout(() => (window.__benchFirstRowMs = performance.now())));
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

/**
 * Opens `url` (a wallet page) in `page` and waits for its first row. `pageMs`: navigation start to the frame
 * that shows the row, as the page measured it; `playwrightMs`: goto to Playwright seeing it.
 */
export async function firstRow(page, url) {
  await page.addInitScript(watchFirstRow, ROW);
  const t0 = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator(ROW).first().waitFor({ state: 'visible', timeout: 60_000 });
  const playwrightMs = performance.now() - t0;
  const pageMs = await page.waitForFunction(() => window.__benchFirstRowMs, undefined, { timeout: 10_000 }).then((h) => h.jsonValue());
  return { pageMs, playwrightMs };
}
