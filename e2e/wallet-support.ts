import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

/** Shared checks of the wallet specs: layout, accessibility, screenshots kept as artifacts. */

export const WIDTHS = [375, 1280] as const;
export const THEMES = ['light', 'dark'] as const;

export async function expectNoHorizontalScroll(page: Page) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll, 'page scrolls sideways').toBeLessThanOrEqual(inner);
}

export async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)).toEqual([]);
}

export async function setView(page: Page, width: number, theme: 'light' | 'dark') {
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme: theme });
}

export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Rows of the history list currently shown. */
export async function rowHashes(page: Page): Promise<string[]> {
  return page.locator('li[data-tx-hash]').evaluateAll((els) => els.map((e) => e.getAttribute('data-tx-hash') ?? ''));
}
