/** The rows of a raw query (`db.execute`): postgres-js gives an array, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
