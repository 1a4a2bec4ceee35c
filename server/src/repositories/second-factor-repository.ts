import { and, asc, count, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { ScureBase32Plugin } from 'otplib';
import type { Database } from '../db/client.js';
import {
  loginTickets,
  recoveryCodes,
  securitySettings,
  totpFactors,
  webauthnChallenges,
  webauthnCredentials,
  type WebauthnCredentialRecord,
} from '../db/schema.js';
import type { NewAuditRecord } from '../db/schema-admin.js';
import { seal, unseal } from '../lib/secrets-key.js';
import { insertAudit } from './audit-repository.js';

export interface NewCredential {
  id: string;
  userId: number;
  publicKey: string;
  counter: number;
  transports: string;
  name: string;
}

/*
 * TOTP secrets are stored encrypted with the key of SECRETS_KEY_FILE (decision 032), bound to their person:
 * the base32 secret's 20 bytes sealed (lib/secrets-key.ts) are 48 bytes, 64 characters of base64url, which
 * the column holds. A stored secret of another length is one written before (base32, 32 characters): read
 * as it is, and sealed by `sealStoredTotpSecrets` at start.
 */
const base32 = new ScureBase32Plugin();
const SEALED_LENGTH = 64;
const totpContext = (userId: number) => `totp:${userId}`;

/** A second factor's rows (product.md §11.7): SQL only, every one-use step a single conditional statement. */
export class SecondFactorRepository {
  constructor(
    private readonly db: Database,
    private readonly secretsKey: () => Promise<Buffer>,
  ) {}

  private async sealTotp(userId: number, secret: string): Promise<string> {
    const bytes = base32.decode(secret);
    if (bytes.length !== 20) throw new Error('a TOTP secret is 20 bytes');
    return seal(await this.secretsKey(), bytes, totpContext(userId)).toString('base64url');
  }

  private async openTotp(userId: number, stored: string): Promise<string> {
    if (stored.length !== SEALED_LENGTH) return stored;
    const bytes = unseal(await this.secretsKey(), Buffer.from(stored, 'base64url'), totpContext(userId));
    return base32.encode(bytes, { padding: false });
  }

  async totp(userId: number) {
    const rows = await this.db.select().from(totpFactors).where(eq(totpFactors.userId, userId)).limit(1);
    const row = rows[0];
    return row ? { ...row, secret: await this.openTotp(userId, row.secret) } : null;
  }

  /** Seals the TOTP secrets stored before they were encrypted; the number sealed. */
  async sealStoredTotpSecrets(): Promise<number> {
    const rows = await this.db
      .select({ userId: totpFactors.userId, secret: totpFactors.secret })
      .from(totpFactors)
      .where(sql`length(${totpFactors.secret}) <> ${SEALED_LENGTH}`);
    let sealed = 0;
    for (const row of rows) {
      const updated = await this.db
        .update(totpFactors)
        .set({ secret: await this.sealTotp(row.userId, row.secret) })
        .where(and(eq(totpFactors.userId, row.userId), eq(totpFactors.secret, row.secret)))
        .returning({ userId: totpFactors.userId });
      sealed += updated.length;
    }
    return sealed;
  }

  /** A new pending secret; false when a confirmed one exists (it is never replaced without removing it). */
  async saveTotpPending(userId: number, plainSecret: string): Promise<boolean> {
    const secret = await this.sealTotp(userId, plainSecret);
    const rows = await this.db
      .insert(totpFactors)
      .values({ userId, secret })
      .onConflictDoUpdate({
        target: totpFactors.userId,
        set: { secret, lastStep: null, createdAt: sql`now()` },
        setWhere: isNull(totpFactors.confirmedAt),
      })
      .returning({ userId: totpFactors.userId });
    return rows.length > 0;
  }

  /**
   * Takes the code's time step: true once per step, and only for a step after the last one taken, so a code
   * is never accepted twice. `confirm` also confirms a pending secret; otherwise it must be confirmed already.
   */
  async takeTotpStep(userId: number, step: number, confirm: boolean, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(totpFactors)
      .set(confirm ? { lastStep: step, confirmedAt: now } : { lastStep: step })
      .where(
        and(
          eq(totpFactors.userId, userId),
          confirm ? isNull(totpFactors.confirmedAt) : isNotNull(totpFactors.confirmedAt),
          or(isNull(totpFactors.lastStep), lt(totpFactors.lastStep, step)),
        ),
      )
      .returning({ userId: totpFactors.userId });
    return rows.length > 0;
  }

  async removeTotp(userId: number): Promise<boolean> {
    const rows = await this.db
      .delete(totpFactors)
      .where(eq(totpFactors.userId, userId))
      .returning({ userId: totpFactors.userId });
    return rows.length > 0;
  }

  async credentials(userId: number): Promise<WebauthnCredentialRecord[]> {
    return this.db
      .select()
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.userId, userId))
      .orderBy(asc(webauthnCredentials.createdAt));
  }

  async credential(id: string): Promise<WebauthnCredentialRecord | null> {
    const rows = await this.db
      .select()
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.id, id))
      .limit(1);
    return rows[0] ?? null;
  }

  /** False when the credential is registered already (to anyone). */
  async addCredential(credential: NewCredential): Promise<boolean> {
    const rows = await this.db
      .insert(webauthnCredentials)
      .values(credential)
      .onConflictDoNothing()
      .returning({ id: webauthnCredentials.id });
    return rows.length > 0;
  }

  /** Moves the signature counter on from exactly `from`: two uses of one assertion cannot both pass. */
  async useCredential(id: string, from: number, to: number, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(webauthnCredentials)
      .set({ counter: to, lastUsedAt: now })
      .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.counter, from)))
      .returning({ id: webauthnCredentials.id });
    return rows.length > 0;
  }

  async removeCredential(userId: number, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(webauthnCredentials)
      .where(and(eq(webauthnCredentials.userId, userId), eq(webauthnCredentials.id, id)))
      .returning({ id: webauthnCredentials.id });
    return rows.length > 0;
  }

  /** The person's recovery codes become exactly these (hashes); the old ones stop working. */
  async replaceRecoveryCodes(userId: number, hashes: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    });
  }

  /** Marks an unused code used; false when there is no such unused code. */
  async useRecoveryCode(userId: number, codeHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, codeHash),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ userId: recoveryCodes.userId });
    return rows.length > 0;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return row?.n ?? 0;
  }

  async removeRecoveryCodes(userId: number): Promise<void> {
    await this.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  }

  async createTicket(id: string, userId: number, expiresAt: Date): Promise<void> {
    await this.db.insert(loginTickets).values({ id, userId, expiresAt });
  }

  async ticket(id: string) {
    const rows = await this.db.select().from(loginTickets).where(eq(loginTickets.id, id)).limit(1);
    return rows[0] ?? null;
  }

  /** Counts one try; null when the ticket is gone, expired or out of tries. */
  async tryTicket(id: string, maxTries: number, now: Date) {
    const rows = await this.db
      .update(loginTickets)
      .set({ tries: sql`${loginTickets.tries} + 1` })
      .where(and(eq(loginTickets.id, id), lt(loginTickets.tries, maxTries), gt(loginTickets.expiresAt, now)))
      .returning();
    return rows[0] ?? null;
  }

  async setTicketChallenge(id: string, challenge: string): Promise<void> {
    await this.db.update(loginTickets).set({ challenge }).where(eq(loginTickets.id, id));
  }

  /** Takes the ticket's passkey challenge once: a replayed response finds it gone. */
  async takeTicketChallenge(id: string, challenge: string): Promise<boolean> {
    const rows = await this.db
      .update(loginTickets)
      .set({ challenge: null })
      .where(and(eq(loginTickets.id, id), eq(loginTickets.challenge, challenge)))
      .returning({ id: loginTickets.id });
    return rows.length > 0;
  }

  /** Ends a ticket; true for the one caller that ended it (a ticket completes one login). */
  async endTicket(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(loginTickets)
      .where(eq(loginTickets.id, id))
      .returning({ id: loginTickets.id });
    return rows.length > 0;
  }

  async addChallenge(
    challenge: string,
    purpose: 'register' | 'login' | 'reauth',
    userId: number | null,
    expiresAt: Date,
  ): Promise<void> {
    await this.db.insert(webauthnChallenges).values({ challenge, purpose, userId, expiresAt });
  }

  /** Takes a challenge once: the row goes, so a replayed response finds none. */
  async takeChallenge(challenge: string, purpose: 'register' | 'login' | 'reauth', now: Date) {
    const rows = await this.db
      .delete(webauthnChallenges)
      .where(and(eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.purpose, purpose)))
      .returning();
    const row = rows[0];
    return row && row.expiresAt > now ? row : null;
  }

  /** Tickets and challenges past their time. */
  async purgeExpired(now: Date): Promise<void> {
    await this.db.delete(loginTickets).where(lte(loginTickets.expiresAt, now));
    await this.db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now));
  }

  async staffRequired(): Promise<boolean> {
    const rows = await this.db.select().from(securitySettings).where(eq(securitySettings.id, 1)).limit(1);
    return rows[0]?.staffSecondFactor ?? false;
  }

  /** The owner's switch and its audit row, in one transaction. */
  async setStaffRequired(required: boolean, now: Date, audit: NewAuditRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .insert(securitySettings)
        .values({ id: 1, staffSecondFactor: required, updatedAt: now })
        .onConflictDoUpdate({
          target: securitySettings.id,
          set: { staffSecondFactor: required, updatedAt: now },
        });
      await insertAudit(tx, audit);
    });
  }
}
