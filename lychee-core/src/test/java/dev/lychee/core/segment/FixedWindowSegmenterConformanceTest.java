package dev.lychee.core.segment;

import dev.lychee.api.spi.Segmenter;
import dev.lychee.core.conformance.BaseSegmenterTestCase;

class FixedWindowSegmenterConformanceTest extends BaseSegmenterTestCase {
  @Override
  protected Segmenter.Factory factory() {
    return FixedWindowSegmenter.factory(SegmentationConfig.defaults());
  }

  @Override
  protected String expectedName() {
    return "fixed";
  }
}
