package dev.lychee.core.rerank;

import dev.lychee.api.spi.Reranker;

/** The feature reranker against the reranker contract. */
class FeatureRerankerConformanceTest extends dev.lychee.core.conformance.BaseRerankerTestCase {
  @Override
  protected Reranker newReranker() {
    return new FeatureReranker(RerankWeights.defaults());
  }
}
