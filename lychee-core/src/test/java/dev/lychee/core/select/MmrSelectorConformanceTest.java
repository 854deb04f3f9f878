package dev.lychee.core.select;

import dev.lychee.api.spi.Selector;
import dev.lychee.core.strategy.Strategies;

/** MMR selection (defaults) against the selector contract. */
class MmrSelectorConformanceTest extends dev.lychee.core.conformance.BaseSelectorTestCase {
  @Override
  protected Selector newSelector() {
    return new MmrSelector(MmrConfig.defaults(), Strategies.defaults());
  }
}
