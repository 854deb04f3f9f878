/**
 * Dates at write time: {@link dev.lychee.core.time.DateKeys} reads absolute dates the way the
 * reference implementation keys them, and {@link dev.lychee.core.time.TemporalNormalizer} resolves
 * relative expressions ("yesterday", "last Friday", "two weeks ago", "in May") against a session
 * date into days or day ranges.
 */
package dev.lychee.core.time;
