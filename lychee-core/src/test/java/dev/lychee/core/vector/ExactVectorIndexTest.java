package dev.lychee.core.vector;

import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.conformance.BaseVectorIndexTestCase;

class ExactVectorIndexTest extends BaseVectorIndexTestCase {
  @Override
  protected VectorIndex newIndex() {
    return new ExactVectorIndex();
  }
}
