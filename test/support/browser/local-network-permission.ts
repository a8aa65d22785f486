import type { Browser, BrowserContext } from 'playwright-core';

/**
 * A fresh browser context in which `origin` holds Chrome's Local Network Access permission, as after the user's
 * click on "Allow". Chromium 156 knows the permission under its new name and its earlier one: both are set. The
 * overrides live as long as the CDP session that set them, which stays attached until the context closes.
 */
export async function contextWithLocalNetworkAccess(browser: Browser, origin: string): Promise<BrowserContext> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const cdp = await browser.newBrowserCDPSession();
  const { browserContextIds } = (await cdp.send('Target.getBrowserContexts')) as { browserContextIds: string[] };
  for (const browserContextId of browserContextIds) {
    for (const name of ['loopback-network', 'local-network-access']) {
      await cdp.send('Browser.setPermission', { permission: { name }, setting: 'granted', origin, browserContextId });
    }
  }
  return context;
}
