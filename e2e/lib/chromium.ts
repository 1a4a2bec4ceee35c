/** Debian's Chromium and the flags every headless run uses (the e2e suite and the Lighthouse bench). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Debian's headless build of the same Chromium (package chromium-headless-shell: the same version's Blink, V8
 * and Skia without the browser's windows and profile services). The browser tests run on it: a login and the
 * desk took two thirds of the CPU they take in `chromiumPath`, and the browser was most of CI's time
 * (decision 042). It has no notifications, so the tests of pushes run on `chromiumPath`.
 */
export const headlessShellPath =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

/** Which of the two a test needs: `full` only for what the shell lacks (notifications and pushes). */
export type ChromiumBuild = 'shell' | 'full';
export const chromiumBuildPath = (build: ChromiumBuild): string =>
  build === 'full' ? chromiumPath : headlessShellPath;

export const phone = { width: 375, height: 812 };

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
