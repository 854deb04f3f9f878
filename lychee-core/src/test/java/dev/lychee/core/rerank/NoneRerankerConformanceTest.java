package dev.lychee.core.rerank;

import dev.lychee.api.spi.Reranker;

/** The reranker bound when reranking is off, against the reranker contract. */
class NoneRerankerConformanceTest extends dev.lychee.core.conformance.BaseRerankerTestCase {
  @Override
  protected Reranker newReranker() {
    return Reranker.NONE;
  }
}
