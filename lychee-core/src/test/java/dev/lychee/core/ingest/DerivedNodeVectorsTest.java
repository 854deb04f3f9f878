package dev.lychee.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.ScoredId;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import dev.lychee.core.vector.Vectors;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link IngestConfig#derivedNodeKinds()}: those nodes take their records' mean vector and are not embedded. */
class DerivedNodeVectorsTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2024, 3, 1, 10, 0);

  private static final class Recording extends EmbedderDecorator {
    final List<String> texts = new ArrayList<>();

    Recording() {
      super(new HashingEmbedder());
    }

    @Override
    public synchronized List<float[]> embedDocuments(List<String> batch) {
      texts.addAll(batch);
      return delegate.embedDocuments(batch);
    }

    @Override
    public float[] embedQuery(String query) {
      return delegate.embedQuery(query);
    }
  }

  @Test
  void tagAndEntityTagNodesGetTheNormalisedMeanOfTheirRecordsVectorsInsteadOfAnEmbedding() {
    Recording embedder = new Recording();
    IngestConfig ingest = IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.SYNC)
        .derivedNodeKinds(EnumSet.of(NodeKind.TAG, NodeKind.ENTITY_TAG)).build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(LycheeConfig.builder().ingest(ingest).build()).build()) {
      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "I adopted a cat named Pixel in Lisbon."),
          Turn.assistant("What a lovely name for a cat."),
          Turn.user("Ada", "I also started learning the violin with my friend Ben.")));
      l.flush("ns", "s1");

      List<EvidenceNode> tags = l.store().nodes("ns", NodeKind.TAG);
      assertThat(tags).isNotEmpty();
      assertThat(l.store().nodes("ns", NodeKind.ENTITY)).isNotEmpty();
      // the derived kinds' own texts never reached the embedder; entity nodes still did
      assertThat(embedder.texts).noneMatch(t -> t.startsWith("Tag: ") || t.contains("\nTag: "));
      assertThat(embedder.texts).anyMatch(t -> t.startsWith("Entity: "));
      assertThat(l.vectors().size("ns", VectorIndex.nodes(NodeKind.TAG))).isEqualTo(tags.size());
      assertThat(l.vectors().size("ns", VectorIndex.nodes(NodeKind.ENTITY_TAG)))
          .isEqualTo(l.store().nodes("ns", NodeKind.ENTITY_TAG).size());

      HashingEmbedder model = new HashingEmbedder();
      int checked = 0;
      for (EvidenceNode tag : tags) {
        List<MemoryRecord> records = l.store().records("ns", tag.recordIds());
        if (records.stream().map(MemoryRecord::segmentId).distinct().count() != 1) {
          continue; // a later segment's records merged in after the vector was set by the first
        }
        checked++;
        float[] mean = new float[model.dimension()];
        for (float[] v : model.embedDocuments(records.stream().map(MemoryRecord::normalizedText).toList())) {
          for (int d = 0; d < v.length; d++) {
            mean[d] += v[d];
          }
        }
        // tags of the same records share one vector, so look the node up among all of them
        List<ScoredId> hits = l.vectors().search("ns", VectorIndex.nodes(NodeKind.TAG), Vectors.unit(mean), tags.size(), null);
        assertThat(hits).filteredOn(h -> h.id().equals(tag.id()))
            .singleElement().satisfies(h -> assertThat(h.score()).isGreaterThan(0.999));
      }
      assertThat(checked).isPositive();
    }
  }

  @Test
  void anEmptySetEmbedsEveryNodeKind() {
    Recording embedder = new Recording();
    IngestConfig ingest = IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.SYNC).derivedNodeKinds(Set.of()).build();
    try (Lychee l = Lychee.builder().embedder(embedder).config(LycheeConfig.builder().ingest(ingest).build()).build()) {
      l.append("ns", "s1", DAY, List.of(Turn.user("Ada", "I adopted a cat named Pixel in Lisbon.")));
      l.flush("ns", "s1");
      assertThat(l.store().nodes("ns", NodeKind.TAG)).isNotEmpty();
      assertThat(embedder.texts).anyMatch(t -> t.startsWith("Tag: "));
    }
  }

  @Test
  void temporalNodesCannotBeDerivedAndTheDefaultDerivesTagAndEntityTagNodes() {
    assertThat(IngestConfig.defaults().derivedNodeKinds()).containsExactlyInAnyOrder(NodeKind.TAG, NodeKind.ENTITY_TAG);
    assertThatThrownBy(() -> IngestConfig.builder().derivedNodeKinds(Set.of(NodeKind.TEMPORAL)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TEMPORAL");
    assertThatThrownBy(() -> IngestConfig.builder().derivedNodeKinds(null).build())
        .isInstanceOf(NullPointerException.class).hasMessageContaining("derivedNodeKinds");
  }
}
