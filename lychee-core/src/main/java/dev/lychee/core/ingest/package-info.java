/**
 * The write path: admit turns, store and embed them at once, segment them online, encode each
 * closed segment with one encoder call, derive evidence nodes and commit.
 *
 * <p>Ordering guarantees: raw turns are committed (and then embedded) before any encoder call; a
 * segment is stored as PENDING before it is encoded; record and node vectors are written before
 * the encoding is committed, so a crash leaves at worst orphan vectors (ignored by recall, since
 * their records are absent) and a PENDING segment that {@code encodePending} retries.
 */
package dev.lychee.core.ingest;
