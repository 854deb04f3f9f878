/** Cross-route fusion: reciprocal-rank fusion with a per-route quota and a score blend. */
package dev.lychee.core.fuse;
