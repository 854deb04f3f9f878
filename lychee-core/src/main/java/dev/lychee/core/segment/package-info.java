/**
 * Online segmentation: how the exchanges of one session are grouped into segments before one
 * encoder call turns each segment into memory records.
 *
 * <p>Three policies implement {@link dev.lychee.api.spi.Segmenter}: {@link
 * dev.lychee.core.segment.SemanticSegmenter} (the paper's embedding-signal boundary detector),
 * {@link dev.lychee.core.segment.FixedWindowSegmenter} (token/exchange windows) and {@link
 * dev.lychee.core.segment.TurnSegmenter} (one segment per exchange, the eager baseline). {@link
 * dev.lychee.core.segment.Exchanges} forms exchanges from raw turns and splits oversized ones;
 * {@link dev.lychee.core.segment.BoundarySignals} holds the pure signal arithmetic.
 */
package dev.lychee.core.segment;
