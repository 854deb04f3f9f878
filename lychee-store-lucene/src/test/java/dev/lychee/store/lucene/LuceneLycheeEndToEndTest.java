package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import dev.lychee.api.Recall;
import dev.lychee.api.SegmentState;
import dev.lychee.api.Turn;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import dev.lychee.core.ingest.IngestResult;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.testing.HashingEmbedder;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole offline pipeline over the Lucene store, through the facade, across a restart. */
class LuceneLycheeEndToEndTest {
  private static final LocalDateTime DAY1 = LocalDateTime.of(2023, 5, 8, 13, 56);

  @TempDir Path dir;

  private Lychee open() {
    return Lychee.builder().embedder(new HashingEmbedder())
        .module(new LuceneStoreModule(dir, TestConfigs.FAST)).build();
  }

  @Test
  void ingestRecallRestartAndForget() {
    List<Turn> plain = List.of(
        Turn.user("Nadia", "Hi Rafael! Yesterday I went to a community choir rehearsal and it was so powerful."),
        Turn.user("Rafael", "That's great, Nadia. I painted a sunrise over the lake last week."),
        Turn.user("Nadia", "I love that. I am planning to study counseling and mental health."),
        Turn.user("Rafael", "You would be great at it. My kids love the beach, we go camping every summer."))
;
    List<Turn> turns = IntStream.range(0, plain.size()).mapToObj(i -> plain.get(i).withIndex(i)).toList();
    try (Lychee lychee = open()) {
      assertThat(((CheckedRecordStore) lychee.store()).storage()).isInstanceOf(LuceneRecordStore.class);
      assertThat(lychee.vectors()).isInstanceOf(LuceneVectorIndex.class);
      IngestResult r = lychee.append("alice", "s1", DAY1, turns);
      assertThat(r.turnsStored()).isEqualTo(4);
      IngestResult f = lychee.flush("alice", "s1");
      assertThat(f.errors()).isEmpty();
      assertThat(lychee.store().segments("alice")).isNotEmpty()
          .allSatisfy(s -> assertThat(s.state()).isEqualTo(SegmentState.ENCODED));
      assertThat(lychee.store().records("alice")).isNotEmpty();
    }
    try (Lychee lychee = open()) {
      assertThat(lychee.store().countTurns("alice")).isEqualTo(4);
      assertThat(lychee.vectors().size("alice", VectorIndex.TURNS)).isEqualTo(4);
      assertThat(lychee.vectors().size("alice", VectorIndex.RECORDS))
          .isEqualTo(lychee.store().records("alice").size());
      assertThat(lychee.store().searchText("alice", TextField.TURNS, "painted sunrise", 3))
          .extracting(h -> h.id()).first().isEqualTo("episode:s1:1");
      Recall recall = lychee.recall("alice", "What did Rafael paint?");
      assertThat(recall.evidence()).isNotEmpty();
      assertThat(recall.coveredTurns(5)).contains(TurnRef.of("s1", 1));
      // re-sending the same indexed turns after the restart adds nothing
      assertThat(lychee.append("alice", "s1", DAY1, turns).turnsStored()).isZero();

      lychee.forget("alice");
      assertThat(lychee.store().countTurns("alice")).isZero();
      assertThat(lychee.store().records("alice")).isEmpty();
      assertThat(lychee.vectors().size("alice", VectorIndex.TURNS)).isZero();
      assertThat(lychee.vectors().size("alice", VectorIndex.RECORDS)).isZero();
    }
  }
}
