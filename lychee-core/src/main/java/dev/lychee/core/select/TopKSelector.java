package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.Selector;
import java.util.ArrayList;
import java.util.List;

/**
 * The plainest selection: the first k candidates in the order given, with no diversity and no
 * episode limit (the evaluation's "no fusion, rerank or diversity" variant binds it). Stateless.
 */
public final class TopKSelector implements Selector {
  @Override
  public List<Evidence> select(List<Candidate> pool, RecallContext context) {
    int n = Math.min(context.k(), pool.size());
    List<Evidence> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new Evidence(i + 1, pool.get(i).score(), pool.get(i)));
    }
    return out;
  }
}
