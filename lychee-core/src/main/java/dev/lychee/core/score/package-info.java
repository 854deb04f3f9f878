/**
 * Score arithmetic and candidate handling shared by every read stage and by custom channels:
 * {@link dev.lychee.core.score.Scores}, {@link dev.lychee.core.score.TemporalMatch} and
 * {@link dev.lychee.core.score.CandidateMerger}, the helper that dedupes and orders candidates.
 */
package dev.lychee.core.score;
