package dev.lychee.core.select;

import dev.lychee.api.spi.Selector;
import dev.lychee.core.strategy.Strategies;

/** MMR selection followed by the episode limiter against the selector contract. */
class MmrWithEpisodeLimiterConformanceTest extends dev.lychee.core.conformance.BaseSelectorTestCase {
  @Override
  protected Selector newSelector() {
    return new MmrSelector(MmrConfig.builder().episodeLimiter(true).build(), Strategies.defaults());
  }
}
