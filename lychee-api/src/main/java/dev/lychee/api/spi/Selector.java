package dev.lychee.api.spi;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import java.util.List;

/**
 * Picks the final evidence list of at most {@code context.k()} items from the fused pool.
 */
public interface Selector {
  List<Evidence> select(List<Candidate> pool, RecallContext context);
}
