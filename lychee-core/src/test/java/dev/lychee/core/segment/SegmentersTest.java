package dev.lychee.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.spi.EmbeddingProfile;
import org.junit.jupiter.api.Test;

class SegmentersTest {
  private static final SegmentationConfig C = SegmentationConfig.defaults();
  private static final EmbeddingProfile P = EmbeddingProfile.TEXT_EMBEDDING_3_SMALL;

  @Test
  void picksByName() {
    assertThat(Segmenters.factory("semantic", C, P).name()).isEqualTo("semantic");
    assertThat(Segmenters.factory("fixed", C, P).name()).isEqualTo("fixed");
    assertThat(Segmenters.factory("turn", C, P).name()).isEqualTo("turn");
    assertThat(Segmenters.factory(" Semantic ", C, P).create("n", "s")).isInstanceOf(SemanticSegmenter.class);
    assertThat(Segmenters.factory("FIXED", C, null).create("n", "s")).isInstanceOf(FixedWindowSegmenter.class);
    assertThat(Segmenters.factory("turn", C, null).create("n", "s")).isInstanceOf(TurnSegmenter.class);
  }

  @Test
  void unknownNamesListTheValidOnes() {
    assertThatThrownBy(() -> Segmenters.factory("llm", C, P))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("llm")
        .hasMessageContaining("semantic, fixed, turn");
    assertThatThrownBy(() -> Segmenters.factory(null, C, P)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void semanticNeedsAProfile() {
    assertThatThrownBy(() -> Segmenters.factory("semantic", C, null)).isInstanceOf(NullPointerException.class);
  }
}
