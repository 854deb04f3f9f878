package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write refused before it changed a document rolls nothing back, even when a flush or a commit
 * ran meanwhile (they run without the write lock, and move the writer's sequence number); a write
 * that changed a document and then failed is rolled back as before (round eighteen).
 */
class LuceneRefusalTest {
  @TempDir Path dir;

  private static final LuceneStoreConfig DEFERRED = TestConfigs.FAST.toBuilder()
      .deferredCommit(Duration.ofHours(1)).build();

  private static Document doc(String id) {
    Document d = new Document();
    d.add(new StringField("id", id, Field.Store.NO));
    return d;
  }

  private static int docs(LuceneIndex index) {
    return index.read(s -> s.getIndexReader().numDocs());
  }

  @Test
  void aRefusalAfterAFlushMeanwhileKeepsTheDeferredWritesBeforeIt() {
    try (LuceneIndex index = new LuceneIndex(dir, new StandardAnalyzer(), DEFERRED)) {
      index.writeDeferred((w, s) -> w.addDocument(doc("kept")));
      // a flush ahead of another thread's reopen lands while this write validates, then it refuses
      assertThatThrownBy(() -> index.write((w, s) -> {
        w.flush();
        throw new IllegalArgumentException("refused");
      })).isInstanceOf(IllegalArgumentException.class).hasMessage("refused");
      // no rollback: the uncommitted deferred document is still there
      assertThat(docs(index)).isEqualTo(1);
      int kept = index.read(s -> s.count(new TermQuery(new Term("id", "kept"))));
      assertThat(kept).isEqualTo(1);
    }
  }

  @Test
  void aWriteThatChangedADocumentAndFailedIsRolledBackWithTheDeferredWrites() {
    try (LuceneIndex index = new LuceneIndex(dir, new StandardAnalyzer(), DEFERRED)) {
      index.write((w, s) -> w.addDocument(doc("committed")));
      index.writeDeferred((w, s) -> w.addDocument(doc("deferred")));
      assertThatThrownBy(() -> index.write((w, s) -> {
        w.addDocument(doc("half"));
        throw new IllegalStateException("failed half-way");
      })).isInstanceOf(IllegalStateException.class);
      // rolled back to the last commit: the half-done write and the deferred one are gone
      assertThat(docs(index)).isEqualTo(1);
    }
  }
}
