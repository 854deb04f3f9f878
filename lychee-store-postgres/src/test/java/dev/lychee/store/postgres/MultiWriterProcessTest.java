package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.StoredSegment;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three JVMs, each its own application instance with its own pool, append to one namespace and
 * session at once while the store assigns indices: every turn lands exactly once, indices run
 * 0..n-1 without a gap, every batch is one contiguous segment, and the second namespace each
 * writer touches never shows up in the first.
 */
class MultiWriterProcessTest {
  private static final int WRITERS = 3;
  private static final int BATCHES = 25;
  private static final int PER_BATCH = 3;

  @Test
  @Timeout(180)
  void threeInstancesAppendingToOneSessionGetEveryIndexExactlyOnce() throws Exception {
    String url = TestPostgres.get().url();
    String schema = TestPostgres.freshSchema();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).build();
    try (RecordStore store = PostgresRecordStore.open(url, config)) {
      List<ChildJvm> children = new ArrayList<>();
      try {
        for (int w = 0; w < WRITERS; w++) {
          children.add(ChildJvm.start(WriterChild.class, url, schema, "ns", "shared", String.valueOf(w),
              String.valueOf(BATCHES), String.valueOf(PER_BATCH)));
        }
        for (ChildJvm c : children) {
          c.await("READY");
        }
        for (ChildJvm c : children) {
          c.send("GO");
        }
        for (ChildJvm c : children) {
          c.await("DONE");
          assertThat(c.waitFor(60)).isZero();
        }
      } finally {
        children.forEach(ChildJvm::close);
      }

      int total = WRITERS * BATCHES * PER_BATCH;
      List<RawTurn> turns = store.turns("ns", "shared");
      assertThat(turns).hasSize(total);
      assertThat(store.countTurns("ns")).isEqualTo(total);
      assertThat(store.nextTurnIndex("ns", "shared")).isEqualTo(total);
      Set<String> texts = new HashSet<>();
      for (int i = 0; i < total; i++) {
        assertThat(turns.get(i).index()).isEqualTo(i);
        assertThat(texts.add(turns.get(i).text())).as("duplicate %s", turns.get(i).text()).isTrue();
      }
      // every batch got consecutive indices, so the segments tile the session without overlap
      List<StoredSegment> segments = store.segments("ns");
      assertThat(segments).hasSize(WRITERS * BATCHES);
      int next = 0;
      for (StoredSegment s : segments) {
        assertThat(s.segment().firstIndex()).isEqualTo(next);
        assertThat(s.segment().turns()).hasSize(PER_BATCH)
            .extracting(RawTurn::speaker).containsOnly(s.segment().turns().get(0).speaker());
        next = s.segment().lastIndex() + 1;
      }
      assertThat(next).isEqualTo(total);

      assertThat(store.countTurns("ns-other")).isEqualTo(WRITERS * BATCHES);
      assertThat(store.searchText("ns", TextField.TURNS, "elsewhere marker", 50)).isEmpty();
      assertThat(store.searchText("ns-other", TextField.TURNS, "lychee writer", 50)).isEmpty();
      assertThat(store.searchText("ns", TextField.TURNS, "lychee", 1000)).extracting(ScoredId::id)
          .hasSize(total).allMatch(id -> id.startsWith("episode:shared:"));
    }
  }
}
