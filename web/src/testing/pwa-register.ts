/* Tests run without the PWA plugin: its virtual module resolves here (the app registers no worker in tests). */
export function registerSW(): (reload?: boolean) => Promise<void> {
  return async () => undefined;
}
