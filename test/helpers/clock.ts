import type { Clock } from '../../src/accounts/keys.js';

/** A clock tests move by hand: no sleeps, windows and expiries tested exactly. */
export class FakeClock implements Clock {
  constructor(private t: number = Date.parse('2026-11-20T12:00:00.000Z')) {}
  now(): Date {
    return new Date(this.t);
  }
  set(iso: string): void {
    this.t = Date.parse(iso);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
