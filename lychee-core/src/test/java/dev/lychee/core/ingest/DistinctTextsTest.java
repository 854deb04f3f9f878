package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.EmbeddingPriority;
import dev.lychee.core.testing.HashingEmbedder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistinctTextsTest {
  /** Remembers the texts of every document batch. */
  private static final class Recording extends EmbedderDecorator {
    final List<List<String>> batches = new ArrayList<>();

    Recording() {
      super(new HashingEmbedder());
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      batches.add(List.copyOf(texts));
      return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }
  }

  @Test
  void aRepeatedTextIsEmbeddedOnceAndEveryPositionGetsItsVector() {
    Recording embedder = new Recording();
    List<String> texts = List.of("Ada: hi", "user: Ada: hi", "Ada: hi", "Bo: yes", "user: Ada: hi");
    List<float[]> vs = DistinctTexts.embed(embedder, texts, EmbeddingPriority.FOREGROUND);
    assertThat(embedder.batches).containsExactly(List.of("Ada: hi", "user: Ada: hi", "Bo: yes"));
    List<float[]> alone = new HashingEmbedder().embedDocuments(texts);
    assertThat(vs).hasSize(5);
    for (int i = 0; i < texts.size(); i++) {
      assertThat(vs.get(i)).containsExactly(alone.get(i));
    }
    // no two positions share an array, so a caller that scales one vector leaves the other alone
    assertThat(vs.get(2)).isNotSameAs(vs.get(0));
    assertThat(vs.get(4)).isNotSameAs(vs.get(1));
  }

  @Test
  void distinctTextsGoThroughAsOneBatchInTheirOrder() {
    Recording embedder = new Recording();
    List<String> texts = List.of("a", "b", "c");
    List<float[]> vs = DistinctTexts.embed(embedder, texts, EmbeddingPriority.BACKGROUND);
    assertThat(embedder.batches).containsExactly(texts);
    assertThat(vs.get(1)).containsExactly(new HashingEmbedder().embedDocuments(List.of("b")).get(0));
  }
}
