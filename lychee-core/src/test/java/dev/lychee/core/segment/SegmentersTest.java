package dev.lychee.core.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbeddingProfile;
import java.util.List;
import java.util.Optional;
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
  void turnTextsAreReadWithTheEmbeddersTurnTextProfileWhenItHasOne() {
    EmbeddingProfile exchanges = new EmbeddingProfile(0.08, 0.057, 0.028);
    EmbeddingProfile turns = new EmbeddingProfile(0.10, 0.071, 0.034);
    SegmentationConfig fromTurns = SegmentationConfig.builder().exchangeVectorsFromTurns(true).build();
    SegmentationConfig exchangeTexts = SegmentationConfig.builder().exchangeVectorsFromTurns(false).build();
    Embedder calibrated = new ProfiledEmbedder(exchanges, Optional.of(turns));
    Embedder uncalibrated = new ProfiledEmbedder(exchanges, Optional.empty());
    assertThat(Segmenters.profile(fromTurns, calibrated)).isEqualTo(turns);
    assertThat(Segmenters.profile(exchangeTexts, calibrated)).isEqualTo(exchanges);
    // an embedder not fitted on turn texts: its one profile is all there is
    assertThat(Segmenters.profile(fromTurns, uncalibrated)).isEqualTo(exchanges);
    assertThat(Segmenters.profile(exchangeTexts, uncalibrated)).isEqualTo(exchanges);
  }

  /** An embedder that only states its profiles. */
  private record ProfiledEmbedder(EmbeddingProfile exchanges, Optional<EmbeddingProfile> turns) implements Embedder {
    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      throw new UnsupportedOperationException();
    }

    @Override
    public float[] embedQuery(String query) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int dimension() {
      return 1;
    }

    @Override
    public String modelId() {
      return "profiled";
    }

    @Override
    public EmbeddingProfile profile() {
      return exchanges;
    }

    @Override
    public Optional<EmbeddingProfile> turnTextProfile() {
      return turns;
    }
  }

  @Test
  void semanticNeedsAProfile() {
    assertThatThrownBy(() -> Segmenters.factory("semantic", C, null)).isInstanceOf(NullPointerException.class);
  }
}
