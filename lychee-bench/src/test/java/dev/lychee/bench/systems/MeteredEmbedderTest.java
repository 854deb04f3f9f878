package dev.lychee.bench.systems;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.core.testing.HashingEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeteredEmbedderTest {
  @Test
  void countsCallsAndTextsOfEachSideAndPassesTheVectorsThrough() {
    HashingEmbedder plain = new HashingEmbedder();
    MeteredEmbedder metered = new MeteredEmbedder(new HashingEmbedder());

    assertThat(metered.embedDocuments(List.of("one turn", "another turn")))
        .containsExactlyElementsOf(plain.embedDocuments(List.of("one turn", "another turn")));
    assertThat(metered.embedQuery("a question")).containsExactly(plain.embedQuery("a question"));
    metered.embedQueries(List.of("q1", "q2", "q3"));

    MeteredEmbedder.Use use = metered.use();
    assertThat(use.calls()).isEqualTo(3);
    assertThat(use.documents()).isEqualTo(2);
    assertThat(use.queries()).isEqualTo(4);
    assertThat(use.texts()).isEqualTo(6);
    assertThat(use.nanos()).isPositive();
    assertThat(metered.dimension()).isEqualTo(plain.dimension());
    assertThat(metered.modelId()).isEqualTo(plain.modelId());
  }

  @Test
  void resetStartsAfreshAndTheShareIsOfTheGivenWallTime() {
    MeteredEmbedder metered = new MeteredEmbedder(new HashingEmbedder());
    metered.embedDocuments(List.of("before"));
    metered.reset();
    assertThat(metered.use()).isEqualTo(new MeteredEmbedder.Use(0, 0, 0, 0));

    assertThat(new MeteredEmbedder.Use(1, 1, 0, 250).shareOf(1000)).isEqualTo(0.25);
    assertThat(new MeteredEmbedder.Use(1, 1, 0, 250).shareOf(0)).isNaN();
  }
}
