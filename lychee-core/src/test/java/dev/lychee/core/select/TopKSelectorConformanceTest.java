package dev.lychee.core.select;

import dev.lychee.api.spi.Selector;

/** The plain first-k selection against the selector contract. */
class TopKSelectorConformanceTest extends dev.lychee.core.conformance.BaseSelectorTestCase {
  @Override
  protected Selector newSelector() {
    return new TopKSelector();
  }
}
