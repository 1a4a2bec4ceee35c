import path from 'node:path';
import { z } from 'zod';

/*
 * The backup variables (README "Configuration"; decision 032): daily backups (npm run backup's file) into
 * BACKUP_DIR at BACKUP_TIME in BACKUP_TIMEZONE, by one instance, the newest BACKUP_KEEP kept; encrypted to
 * the age public keys of BACKUP_RECIPIENTS, or unencrypted only when BACKUP_PLAIN=true. BACKUP_PASSPHRASE
 * only reads backups that earlier versions encrypted with it.
 */

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const KEEP = 'must be an integer from 1 to 365';

export const BACKUP_ENV = {
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number({ error: KEEP }).int(KEEP).min(1, KEEP).max(365, KEEP).default(7),
  BACKUP_RECIPIENTS: z
    .string()
    .regex(
      /^age1[0-9a-z]{20,}(\s*,\s*age1[0-9a-z]{20,})*$/,
      'must be comma-separated age public keys (age1..., made with age-keygen)',
    )
    .optional(),
  BACKUP_PLAIN: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  BACKUP_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM (24 hours)')
    .default('03:30'),
  BACKUP_TIMEZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as Asia/Tokyo')
    .default('Asia/Tokyo'),
  BACKUP_PASSPHRASE: z.string().min(12, 'must be at least 12 characters').max(1024).optional(),
};

export interface BackupConfig {
  /** Folder of the daily backups; null: none are taken. */
  dir: string | null;
  keep: number;
  /** age public keys every backup is encrypted to (decision 032). */
  recipients: string[];
  /** Daily backups unencrypted (BACKUP_PLAIN=true, no recipients). */
  plain: boolean;
  /** The daily backup's time of day, HH:MM, in `timeZone`. */
  time: string;
  timeZone: string;
  /** Reads backups that earlier versions encrypted with a passphrase; never writes one. */
  passphrase: string | undefined;
}

/** Daily backups are encrypted, or plain only when asked for: otherwise `fail` (the server does not start). */
export function backupOf(
  parsed: z.output<z.ZodObject<typeof BACKUP_ENV>>,
  fail: (message: string) => never,
): BackupConfig {
  const recipients = parsed.BACKUP_RECIPIENTS?.split(',').map((key) => key.trim()) ?? [];
  const plain = parsed.BACKUP_PLAIN === 'true';
  if (parsed.BACKUP_DIR && recipients.length === 0 && !plain) {
    fail(
      'Invalid environment variable BACKUP_RECIPIENTS: daily backups (BACKUP_DIR) are encrypted to age ' +
        'public keys: set BACKUP_RECIPIENTS (age-keygen), or BACKUP_PLAIN=true to write them unencrypted',
    );
  }
  return {
    dir: parsed.BACKUP_DIR ? path.resolve(parsed.BACKUP_DIR) : null,
    keep: parsed.BACKUP_KEEP,
    recipients,
    plain,
    time: parsed.BACKUP_TIME,
    timeZone: parsed.BACKUP_TIMEZONE,
    passphrase: parsed.BACKUP_PASSPHRASE,
  };
}
