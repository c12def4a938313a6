import type { Clock } from '../../ports/clock';

/** A clock that stands still until told to move: tests and the in-browser mock see exact times. */
export class ManualClock implements Clock {
  private t: number;

  constructor(start: Date | string = '2026-01-01T09:00:00.000Z') {
    this.t = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.t);
  }

  /** Moves the clock on by `ms` milliseconds. */
  advance(ms: number): void {
    this.t += ms;
  }
}
