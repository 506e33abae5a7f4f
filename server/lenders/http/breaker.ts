/**
 * A circuit breaker per lender (issue 38): after `failures` calls in a row that found the lender unavailable, the
 * lender is skipped at once for `openMs` — the waterfall does not wait a timeout per borrower for a lender that is
 * down — then one call tries it again: its success closes the breaker, its failure opens it for another `openMs`.
 */
export interface BreakerSettings {
  failures: number;
  openMs: number;
}

export type BreakerState = 'closed' | 'open' | 'trying';

export class Breaker {
  private failuresInARow = 0;
  private openUntil = 0;
  private trial = false;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): BreakerState {
    if (this.openUntil === 0) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'trying';
  }

  /** May a call go out now? While trying again, only the first call does; the others are skipped until it answers. */
  allows(): boolean {
    if (this.openUntil === 0) return true;
    if (this.now() < this.openUntil || this.trial) return false;
    this.trial = true;
    return true;
  }

  succeeded(): void {
    this.failuresInARow = 0;
    this.openUntil = 0;
    this.trial = false;
  }

  failed(): void {
    this.trial = false;
    this.failuresInARow++;
    if (this.openUntil !== 0 || this.failuresInARow >= this.settings.failures) this.openUntil = this.now() + this.settings.openMs;
  }
}
