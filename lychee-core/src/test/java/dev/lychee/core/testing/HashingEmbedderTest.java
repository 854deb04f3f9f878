package dev.lychee.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.spi.Embedder;
import dev.lychee.core.conformance.BaseEmbedderTestCase;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The test double must honour the same contract as real embedders, minus meaning. */
class HashingEmbedderTest extends BaseEmbedderTestCase {

  @Override
  protected Embedder newEmbedder() {
    return new HashingEmbedder();
  }

  @Override
  protected boolean semantic() {
    return false;
  }

  @Test
  void sharedWordsRaiseTheCosine() {
    List<float[]> v =
        embedder.embedDocuments(
            List.of("the red bicycle", "a red bicycle in the shed", "quarterly revenue figures"));
    assertThat(cosine(v.get(0), v.get(1))).isGreaterThan(cosine(v.get(0), v.get(2)));
  }
}
