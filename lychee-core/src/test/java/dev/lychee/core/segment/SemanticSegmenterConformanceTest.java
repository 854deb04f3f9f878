package dev.lychee.core.segment;

import dev.lychee.api.spi.EmbeddingProfile;
import dev.lychee.api.spi.Segmenter;
import dev.lychee.core.conformance.BaseSegmenterTestCase;

class SemanticSegmenterConformanceTest extends BaseSegmenterTestCase {
  @Override
  protected Segmenter.Factory factory() {
    return SemanticSegmenter.factory(SegmentationConfig.defaults(), EmbeddingProfile.TEXT_EMBEDDING_3_SMALL);
  }

  @Override
  protected String expectedName() {
    return "semantic";
  }
}
