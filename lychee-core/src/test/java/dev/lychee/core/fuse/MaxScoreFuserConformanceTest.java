package dev.lychee.core.fuse;

import dev.lychee.api.spi.Fuser;

/** The best-score merge against the fuser contract. */
class MaxScoreFuserConformanceTest extends dev.lychee.core.conformance.BaseFuserTestCase {
  @Override
  protected Fuser newFuser() {
    return new MaxScoreFuser();
  }
}
