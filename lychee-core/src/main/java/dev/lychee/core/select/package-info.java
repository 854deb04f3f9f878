/** Diversity-aware selection of the final evidence (MMR with signature similarity, episode limiter). */
package dev.lychee.core.select;
