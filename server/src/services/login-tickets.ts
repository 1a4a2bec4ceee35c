import { randomBytes } from 'node:crypto';
import { LOGIN_TICKET_MS, LOGIN_TICKET_TRIES, jaSecondStep, type WebauthnOptions } from '@enishi/contract';
import { rateLimited, unauthorized } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/tokens.js';
import { challengeOf } from '../lib/webauthn.js';
import type { SecondFactorRepository } from '../repositories/second-factor-repository.js';
import type { FactorAnswers, SecondStep } from './factor-answers.js';

const passkeyExpired = () => unauthorized(jaSecondStep.errors.passkeyExpired);

/** A stored ticket as the second step reads it. */
interface TicketRow {
  id: string;
  userId: number;
  challenge: string | null;
}

/**
 * The tickets between a password and the second step (product.md §11.7): the client holds the token, only
 * its hash is stored; a ticket lives LOGIN_TICKET_MS and allows LOGIN_TICKET_TRIES checks. The answer itself
 * is checked by factor-answers.ts; login-service.ts starts the session once a ticket is used up.
 */
export class LoginTickets {
  constructor(
    private readonly repo: SecondFactorRepository,
    private readonly clock: Clock,
    private readonly answers: FactorAnswers,
  ) {}

  /** A ticket for the second step: the token the client holds; only its hash is stored. */
  async start(userId: number): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    await this.repo.createTicket(sha256Hex(ticket), userId, new Date(this.clock() + LOGIN_TICKET_MS));
    return ticket;
  }

  /** The passkey request of a ticket's account (its challenge kept with the ticket). */
  async options(ticket: string): Promise<WebauthnOptions> {
    const row = await this.live(ticket);
    const options = await this.answers.passkeyRequest(row.userId);
    await this.repo.setTicketChallenge(row.id, options.challenge);
    return { ...options };
  }

  /** Checks a second step; the user's id once it passes (the ticket is then used up). Each check is a try. */
  async complete(ticket: string, step: SecondStep): Promise<number> {
    const id = sha256Hex(ticket);
    const now = new Date(this.clock());
    const row = await this.repo.tryTicket(id, LOGIN_TICKET_TRIES, now);
    if (!row) {
      const found = await this.repo.ticket(id);
      if (found && found.expiresAt > now) throw rateLimited(jaSecondStep.errors.ticketTooManyTries);
      throw unauthorized(jaSecondStep.errors.ticketExpired);
    }
    await this.check(row, step, now);
    if (!(await this.repo.endTicket(id))) throw unauthorized(jaSecondStep.errors.ticketExpired);
    return row.userId;
  }

  /** Tickets and passkey challenges past their time (main.ts calls this now and then). */
  async purgeExpired(): Promise<void> {
    await this.repo.purgeExpired(new Date(this.clock()));
  }

  /** A code or recovery code under the per-account count, or a passkey answering the ticket's challenge. */
  private async check(row: TicketRow, step: SecondStep, now: Date): Promise<void> {
    if (step.webauthn === undefined) return this.answers.codeStep(row.userId, step, now, unauthorized);
    const challenge = challengeOf(step.webauthn);
    if (
      !challenge ||
      challenge !== row.challenge ||
      !(await this.repo.takeTicketChallenge(row.id, challenge))
    )
      throw passkeyExpired();
    const credential = await this.repo.credential(step.webauthn.id);
    if (!credential || credential.userId !== row.userId)
      throw unauthorized(jaSecondStep.errors.passkeyUnknown);
    await this.answers.assertion(credential, step.webauthn, challenge, false);
  }

  private async live(ticket: string) {
    const row = await this.repo.ticket(sha256Hex(ticket));
    if (!row || row.expiresAt.getTime() <= this.clock())
      throw unauthorized(jaSecondStep.errors.ticketExpired);
    if (row.tries >= LOGIN_TICKET_TRIES) throw rateLimited(jaSecondStep.errors.ticketTooManyTries);
    return row;
  }
}
