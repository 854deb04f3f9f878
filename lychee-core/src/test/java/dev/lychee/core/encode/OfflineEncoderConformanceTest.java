package dev.lychee.core.encode;

import dev.lychee.api.spi.Encoder;
import dev.lychee.core.conformance.BaseEncoderTestCase;

class OfflineEncoderConformanceTest extends BaseEncoderTestCase {
  @Override
  protected Encoder newEncoder() {
    return new OfflineEncoder(EncodingConfig.defaults());
  }
}
