/**
 * Selection of the final evidence: {@link dev.lychee.core.select.MmrSelector} (MMR with signature
 * similarity, optional episode limiter) with its {@link dev.lychee.core.select.MmrConfig}, and
 * {@link dev.lychee.core.select.TopKSelector} for the plain first k.
 */
package dev.lychee.core.select;
