/** A route loader's answer that sends the user elsewhere instead (thrown, so it ends the loader at once). */
export class Redirect {
  constructor(readonly to: string) {}
}

export const redirect = (to: string): Redirect => new Redirect(to);
