/**
 * The circuit breaker of a run: a provider that went down mid-run answers every request with the
 * same failure, and each episode would spend its whole retry schedule learning it again. After
 * `limit` infrastructure errors in a row with the same code (in the order they happen), the
 * breaker trips and the run stops scheduling; a success, or an error of another code, starts the
 * count again. `--max-errors` is separate: it counts every error, in a row or not.
 */

/** The default `--breaker`: five same-code infrastructure errors in a row stop a run. */
export const DEFAULT_BREAKER = 5;

export interface Tripped {
  readonly code: string;
  readonly count: number;
}

export class CircuitBreaker {
  private code: string | null = null;
  private count = 0;
  private trippedBy: Tripped | null = null;

  /** `limit`: errors in a row that trip it; null or 0: never trips. */
  constructor(private readonly limit: number | null) {}

  /** Records one outcome: the error's code, or null for a success. True once tripped. */
  record(errorCode: string | null): boolean {
    if (this.trippedBy !== null) return true;
    if (errorCode === null) {
      this.code = null;
      this.count = 0;
      return false;
    }
    this.count = errorCode === this.code ? this.count + 1 : 1;
    this.code = errorCode;
    if (this.limit !== null && this.limit > 0 && this.count >= this.limit)
      this.trippedBy = { code: errorCode, count: this.count };
    return this.trippedBy !== null;
  }

  get tripped(): Tripped | null {
    return this.trippedBy;
  }
}
