package dev.lychee.store.lucene;

import static dev.lychee.store.lucene.Fixtures.turns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.CheckedRecordStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code awaitQuiet} returns once the store does nothing in the background: what deferred and
 * logged writes left is committed (without waiting for the scheduled commit) and no merge is queued
 * or under way. Round twenty-four: after an ingest returned, that commit and the merges it started
 * ran into {@code eval speed}'s warm-up.
 */
class LuceneAwaitQuietTest {
  @TempDir Path dir;

  /** A deferred commit that never comes within a test: only awaitQuiet can commit. */
  private static final LuceneStoreConfig HOUR = TestConfigs.FAST.toBuilder().deferredCommit(Duration.ofHours(1)).build();

  private static int committedDocs(Path index) throws IOException {
    try (FSDirectory fs = FSDirectory.open(index); DirectoryReader r = DirectoryReader.open(fs)) {
      return r.numDocs();
    }
  }

  @Test
  void theVectorIndexCommitsWhatWasLeftAndEndsItsMergesOfManyTinySegments() throws Exception {
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir, HOUR)) {
      for (int i = 0; i < 40; i++) {
        index.upsert("ns", VectorIndex.TURNS, Map.of("s:" + i, new float[] {1, i, 0}));
        // a read reopens the searchers, which flushes the write as a segment of its own
        assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(i + 1);
      }
      assertThat(committedDocs(dir)).isZero();

      assertThat(index.awaitQuiet(Duration.ofMinutes(1))).isTrue();

      assertThat(committedDocs(dir)).isEqualTo(40);
      assertThat(index.index().merging()).isFalse();
      assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(40);
    }
  }

  @Test
  void theRecordStoreBehindItsChecksCommitsLoggedTurns() throws Exception {
    Path records = dir.resolve("records");
    try (RecordStore store = CheckedRecordStore.of(new LuceneRecordStore(records, HOUR))) {
      store.nextTurnIndex("ns", "s1");
      store.appendTurns("ns", "s1", turns("ns", "s1", 0, 3));
      assertThat(committedDocs(records)).isZero();

      assertThat(store.awaitQuiet(Duration.ofMinutes(1))).isTrue();

      assertThat(committedDocs(records)).isPositive();
    }
  }
}
