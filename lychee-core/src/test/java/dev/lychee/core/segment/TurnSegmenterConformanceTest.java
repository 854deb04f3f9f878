package dev.lychee.core.segment;

import dev.lychee.api.spi.Segmenter;
import dev.lychee.core.conformance.BaseSegmenterTestCase;

class TurnSegmenterConformanceTest extends BaseSegmenterTestCase {
  @Override
  protected Segmenter.Factory factory() {
    return TurnSegmenter.factory();
  }

  @Override
  protected String expectedName() {
    return "turn";
  }
}
