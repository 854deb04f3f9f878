package dev.lychee.bench.systems;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.core.testing.HashingEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentVectorReuseTest {
  @Test
  void repeatedDocumentsReachTheModelOnceAndQueriesEveryTime() {
    MeteredEmbedder meter = new MeteredEmbedder(new HashingEmbedder());
    DocumentVectorReuse reuse = new DocumentVectorReuse(meter);
    List<float[]> first = reuse.embedDocuments(List.of("a cat", "a dog", "a cat"));
    List<float[]> again = reuse.embedDocuments(List.of("a dog", "a bird"));
    assertThat(meter.use().documents()).isEqualTo(3);
    assertThat(again.get(0)).containsExactly(first.get(1));
    assertThat(first.get(2)).containsExactly(first.get(0)).isNotSameAs(first.get(0));
    reuse.embedQuery("a cat");
    reuse.embedQueries(List.of("a cat", "a cat"));
    assertThat(meter.use().queries()).isEqualTo(3);
  }
}
