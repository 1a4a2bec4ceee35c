/**
 * A restore refused: the backup cannot go where it was asked to, or is not a whole backup of this club's
 * tables. The message is for the operator; it names tables, columns and parts of the file, never a row's
 * values (a refusal printed the users' password hashes once).
 */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

/**
 * A database error told without its values: its SQLSTATE code and the constraint or column it names.
 * PostgreSQL's message and detail may quote the row ("Failing row contains (…)", "invalid input syntax for
 * type …: "…"") and drizzle's adds the statement's parameters, here the rows themselves.
 */
export function databaseErrorWithoutValues(error: unknown): string {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    const found = cause as {
      code?: unknown;
      constraint?: unknown;
      constraint_name?: unknown;
      column?: unknown;
      column_name?: unknown;
    };
    if (typeof found.code === 'string' && /^[0-9A-Z]{5}$/.test(found.code)) {
      const constraint = found.constraint ?? found.constraint_name;
      const column = found.column ?? found.column_name;
      return [
        `SQLSTATE ${found.code}`,
        typeof constraint === 'string' ? `constraint ${constraint}` : '',
        typeof column === 'string' ? `column ${column}` : '',
      ]
        .filter(Boolean)
        .join(', ');
    }
  }
  return error instanceof Error ? error.name : 'unknown error';
}

/**
 * An error's message for the operator, without values: a refusal's own, a database error's code only (its
 * message may carry the rows a statement wrote), and others' as they are (files, connections).
 */
export function messageWithoutValues(error: unknown): string {
  if (error instanceof RestoreRefused) return error.message;
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    const found = cause as { code?: unknown; params?: unknown; query?: unknown };
    const sqlState = typeof found.code === 'string' && /^[0-9A-Z]{5}$/.test(found.code);
    if (sqlState || found.params !== undefined || found.query !== undefined) {
      return `a database statement failed (${databaseErrorWithoutValues(error)})`;
    }
  }
  return error instanceof Error ? error.message : String(error);
}
