// Wall-clock milliseconds with sub-millisecond precision, for log timestamps that order close events correctly.
export const wallClockNow = (): number => performance.timeOrigin + performance.now();
