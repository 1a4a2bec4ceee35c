import { join } from 'node:path';
import { buildHelloWorld, initialJsGzip, repoRoot } from './lib.js';
import { routeJsFigures } from './route-js.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** What a phone downloads first: the public pages and the app shell, then logged-in routes, beside hello-world. */
export async function benchInitialJs(): Promise<void> {
  // 2. What a phone downloads first.
  const hello = initialJsGzip(buildHelloWorld());
  console.log('\nInitial JS (gzip -9)');
  // The prerendered public pages (a visitor's first load), then the app shell of every other path.
  const pages = ['enter.html', 'login.html', 'intro/male.html', 'intro/female.html', 'index.html'];
  for (const page of pages) {
    const app = initialJsGzip(join(repoRoot, 'web/dist'), page);
    console.log(
      `${`Enishi ${page}`.padEnd(34)} ${kb(app.gzip).padStart(9)} gzip (${kb(app.raw)} raw, ${app.files} files)`,
    );
  }
  // Logged in, as Chromium loads it (issue 29: budgets 120 KB and 170 KB).
  const routes = await routeJsFigures();
  for (const [name, figures] of [
    ["a man's home, 375 px", routes.manHome],
    ['staff desk + talk, 1440 px', routes.staffDesk],
  ] as const) {
    console.log(
      `${name.padEnd(34)} ${kb(figures.gzip).padStart(9)} gzip (${kb(figures.raw)} raw, ${figures.files} files)`,
    );
  }
  console.log(
    `${'hello-world React (same Vite)'.padEnd(34)} ${kb(hello.gzip).padStart(9)} gzip (${kb(hello.raw)} raw, ${hello.files} files)`,
  );
}
