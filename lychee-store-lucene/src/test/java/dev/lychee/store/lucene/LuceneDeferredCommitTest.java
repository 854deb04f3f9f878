package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.NodeKind;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.VectorIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Turn vectors are visible at once and committed later (or on close); record and node vectors are
 * logged before the call returns, removals committed, and a durable write takes the deferred ones
 * along. Flushed
 * segments are compound files.
 */
class LuceneDeferredCommitTest {
  @TempDir Path dir;

  private static final float[] A = {1, 0, 0};
  private static final float[] B = {0, 1, 0};

  private static LuceneStoreConfig deferred(Duration d) {
    return TestConfigs.FAST.toBuilder().deferredCommit(d).build();
  }

  /** Documents in the last commit on disk, as a process opening the directory now would see them. */
  private int committedDocs() throws IOException {
    return committedDocs(dir);
  }

  private static int committedDocs(Path index) throws IOException {
    try (FSDirectory fs = FSDirectory.open(index); DirectoryReader r = DirectoryReader.open(fs)) {
      return r.numDocs();
    }
  }

  @Test
  void turnVectorsAreSearchableAtOnceAndReachDiskOnClose() throws IOException {
    LuceneVectorIndex index = new LuceneVectorIndex(dir, deferred(Duration.ofHours(1)));
    index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A));
    assertThat(index.search("ns", VectorIndex.TURNS, A, 1, null)).extracting(ScoredId::id).containsExactly("s:0");
    assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(1);
    assertThat(committedDocs()).isZero();
    index.close();
    assertThat(committedDocs()).isEqualTo(1);
    try (LuceneVectorIndex again = new LuceneVectorIndex(dir, deferred(Duration.ofHours(1)))) {
      assertThat(again.search("ns", VectorIndex.TURNS, A, 1, null)).extracting(ScoredId::id).containsExactly("s:0");
    }
  }

  @Test
  void aScheduledCommitTakesTurnVectorsToDisk() throws Exception {
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir, deferred(Duration.ofMillis(20)))) {
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A, "s:1", B));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (committedDocs() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(committedDocs()).isEqualTo(2);
    }
  }

  /**
   * Record and node vectors are durable through the index's write-ahead log when the call returns
   * (round nineteen; they were committed each), so a copy of the disk taken then has them back; a
   * durable write (a removal) commits them with the deferred ones.
   */
  @Test
  void recordAndNodeVectorsAreLoggedBeforeTheCallReturnsAndADurableWriteCommitsThemWithDeferredOnes()
      throws IOException {
    Path crashed = dir.resolve("crashed");
    Path live = dir.resolve("live");
    try (LuceneVectorIndex index = new LuceneVectorIndex(live, deferred(Duration.ofHours(1)))) {
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A));
      index.upsert("ns", VectorIndex.RECORDS, Map.of("r1", B));
      index.upsertAll("ns", Map.of(VectorIndex.nodes(NodeKind.ENTITY), Map.of("n1", A),
          VectorIndex.RECORDS, Map.of("r2", A)));
      assertThat(committedDocs(live)).isZero();
      DiskCopy.asIfCrashed(live, crashed);
      index.remove("ns", VectorIndex.RECORDS, List.of("r2"));
      assertThat(committedDocs(live)).isEqualTo(3);
    }
    try (LuceneVectorIndex index = new LuceneVectorIndex(crashed, deferred(Duration.ofHours(1)))) {
      assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(2);
      assertThat(index.size("ns", VectorIndex.nodes(NodeKind.ENTITY))).isEqualTo(1);
      assertThat(index.size("ns", VectorIndex.TURNS)).as("rebuilt by their owner, never logged").isZero();
      assertThat(index.search("ns", VectorIndex.RECORDS, B, 1, null)).extracting(ScoredId::id).containsExactly("r1");
    }
    assertThat(committedDocs(crashed)).as("the open committed what it replayed").isEqualTo(3);
  }

  @Test
  void aDurableWriteRefusedBeforeItChangedAnythingKeepsEarlierDeferredVectors() throws IOException {
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir, deferred(Duration.ofHours(1)))) {
      index.upsert("ns", VectorIndex.RECORDS, Map.of("r1", B));
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A));
      // a dimension mismatch fails inside the write, which rolls the writer back
      assertThatThrownBy(() -> index.upsertAll("ns", Map.of(VectorIndex.RECORDS, Map.of("r2", new float[] {1, 0}))))
          .isInstanceOf(IllegalArgumentException.class);
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:1", B));
      assertThat(index.size("ns", VectorIndex.TURNS)).isEqualTo(2);
      assertThat(index.size("ns", VectorIndex.RECORDS)).isEqualTo(1);
    }
    assertThat(committedDocs()).isEqualTo(3);
  }

  @Test
  void zeroDelayCommitsTurnVectorsAtOnce() throws IOException {
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir, deferred(Duration.ZERO))) {
      index.upsert("ns", VectorIndex.TURNS, Map.of("s:0", A));
      assertThat(committedDocs()).isEqualTo(1);
    }
  }

  @Test
  void flushedSegmentsAreCompoundFilesUnlessTurnedOff() throws IOException {
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("cfs"), TestConfigs.FAST)) {
      index.upsert("ns", VectorIndex.RECORDS, Map.of("r1", A));
      index.remove("ns", VectorIndex.RECORDS, List.of("r0")); // a commit flushes
      assertThat(files(dir.resolve("cfs"))).anyMatch(f -> f.endsWith(".cfs"));
    }
    LuceneStoreConfig plain = TestConfigs.FAST.toBuilder().compoundFlushes(false).build();
    try (LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("plain"), plain)) {
      index.upsert("ns", VectorIndex.RECORDS, Map.of("r1", A));
      index.remove("ns", VectorIndex.RECORDS, List.of("r0"));
      assertThat(files(dir.resolve("plain"))).noneMatch(f -> f.endsWith(".cfs")).anyMatch(f -> f.endsWith(".si"));
    }
  }

  @Test
  void theDelayIsValidated() {
    assertThatThrownBy(() -> LuceneStoreConfig.builder().deferredCommit(Duration.ofMillis(-1)).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(LuceneStoreConfig.defaults().deferredCommit()).isEqualTo(Duration.ofSeconds(1));
    assertThat(LuceneStoreConfig.defaults().compoundFlushes()).isTrue();
  }

  private static List<String> files(Path p) throws IOException {
    try (Stream<Path> s = Files.list(p)) {
      return s.map(f -> f.getFileName().toString()).toList();
    }
  }
}
