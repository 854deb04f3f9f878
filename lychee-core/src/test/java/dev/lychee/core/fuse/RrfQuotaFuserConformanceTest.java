package dev.lychee.core.fuse;

import dev.lychee.api.spi.Fuser;

/** RRF with route quota against the fuser contract. */
class RrfQuotaFuserConformanceTest extends dev.lychee.core.conformance.BaseFuserTestCase {
  @Override
  protected Fuser newFuser() {
    return new RrfQuotaFuser(FusionConfig.defaults());
  }
}
