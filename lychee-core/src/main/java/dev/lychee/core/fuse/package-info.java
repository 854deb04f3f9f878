/**
 * Cross-route fusion: {@link dev.lychee.core.fuse.RrfQuotaFuser} (reciprocal-rank fusion with a
 * per-route quota and a score blend, set by {@link dev.lychee.core.fuse.FusionConfig}) and the plain
 * best-score merge {@link dev.lychee.core.fuse.MaxScoreFuser}.
 */
package dev.lychee.core.fuse;
