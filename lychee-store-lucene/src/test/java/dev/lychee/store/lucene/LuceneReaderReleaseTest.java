package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reader that a reopen replaced is closed after the write lock is released, not under it (its
 * close deletes the files no later reader needs, and appends wait for that lock), and it is closed
 * all the same: by the reopen's own thread once no search holds it, or by the last search that does.
 */
class LuceneReaderReleaseTest {
  @TempDir Path dir;

  private static Document doc(String id) {
    Document d = new Document();
    d.add(new StringField("id", id, Field.Store.NO));
    return d;
  }

  /** Where each closed reader's close ran: true when the closing thread held the write lock. */
  private static void watch(LuceneIndex index, IndexReader reader, List<Boolean> closes) {
    reader.getReaderCacheHelper().addClosedListener(key -> closes.add(index.holdsWriteLock()));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aReplacedReaderIsClosedOutsideTheWriteLock(boolean lazy) {
    LuceneStoreConfig config = TestConfigs.FAST.toBuilder().refreshOnRead(lazy).build();
    List<Boolean> closes = new CopyOnWriteArrayList<>();
    try (LuceneIndex index = new LuceneIndex(dir, new StandardAnalyzer(), config)) {
      for (int i = 0; i < 5; i++) {
        watch(index, index.read(s -> s.getIndexReader()), closes);
        String id = "d" + i;
        // a deferred write: reopened at once (eager) or by the next read (lazy)
        index.writeDeferred((w, s) -> {
          w.addDocument(doc(id));
          return null;
        });
        int docs = index.read(s -> s.getIndexReader().numDocs());
        assertThat(docs).isEqualTo(i + 1);
        assertThat(closes).as("readers closed after write %d", i).hasSize(i + 1);
      }
    }
    assertThat(closes).hasSizeGreaterThanOrEqualTo(5).containsOnly(false);
  }

  @Test
  void aReplacedReaderHeldByASearchIsClosedByItsLastRelease() throws Exception {
    LuceneStoreConfig config = TestConfigs.FAST.toBuilder().refreshOnRead(true).build();
    List<Boolean> closes = new CopyOnWriteArrayList<>();
    try (LuceneIndex index = new LuceneIndex(dir, new StandardAnalyzer(), config)) {
      index.writeDeferred((w, s) -> {
        w.addDocument(doc("a"));
        return null;
      });
      int seen = index.read(s -> {
        watch(index, s.getIndexReader(), closes);
        // a write and a read (which reopens) while this search still holds its reader
        index.writeDeferred((w, s2) -> {
          w.addDocument(doc("b"));
          return null;
        });
        int now = index.read(s2 -> s2.getIndexReader().numDocs());
        assertThat(now).isEqualTo(2);
        assertThat(closes).as("still held by this search").isEmpty();
        return s.getIndexReader().numDocs();
      });
      assertThat(seen).isEqualTo(1);
      assertThat(closes).containsExactly(false);
    }
  }
}
