package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/**
 * The searchers' BM25 statistics on the text field count live documents only (round twenty-two):
 * an index with deleted documents gives the figures of an index that holds only its live ones; a
 * segment's counts are kept while its reader is open and dropped when it closes.
 */
class LuceneLiveStatisticsTest {
  private static final Term CHOIR = new Term(StoreFields.TEXT, "choir");
  private static final Term GONE = new Term(StoreFields.TEXT, "trumpet");

  @Test
  void statisticsWithDeletesLeftInAreThoseOfTheLiveDocumentsAlone() throws Exception {
    Analyzer analyzer = new EnglishAnalyzer();
    LiveStatistics live = new LiveStatistics(StoreFields.TEXT);
    try (ByteBuffersDirectory churned = new ByteBuffersDirectory();
        ByteBuffersDirectory compact = new ByteBuffersDirectory();
        IndexWriter w = new IndexWriter(churned, new IndexWriterConfig(analyzer).setMergePolicy(NoMergePolicy.INSTANCE));
        IndexWriter c = new IndexWriter(compact, new IndexWriterConfig(analyzer))) {
      // two segments; the second rewrites two documents of the first, one of them the only "trumpet"
      w.addDocument(doc("a", "the choir sang in the choir loft"));
      w.addDocument(doc("b", "a trumpet and a choir"));
      w.addDocument(doc("c", "garden hose"));
      w.commit();
      w.updateDocument(new Term("id", "a"), doc("a", "choir"));
      w.updateDocument(new Term("id", "b"), doc("b", "puppy garden"));
      w.addDocument(doc("d", "choir rehearsal on Monday"));
      w.commit();
      for (Document d : List.of(doc("c", "garden hose"), doc("a", "choir"), doc("b", "puppy garden"),
          doc("d", "choir rehearsal on Monday"))) {
        c.addDocument(d);
      }
      c.commit();

      DirectoryReader reader = DirectoryReader.open(w);
      try (DirectoryReader only = DirectoryReader.open(c)) {
        assertThat(reader.numDeletedDocs()).isEqualTo(2);
        IndexSearcher s = live.newSearcher(reader, null);
        IndexSearcher plain = new IndexSearcher(only);
        CollectionStatistics got = s.collectionStatistics(StoreFields.TEXT);
        CollectionStatistics want = plain.collectionStatistics(StoreFields.TEXT);
        assertThat(List.of(got.maxDoc(), got.docCount(), got.sumTotalTermFreq(), got.sumDocFreq()))
            .isEqualTo(List.of(want.maxDoc(), want.docCount(), want.sumTotalTermFreq(), want.sumDocFreq()));
        // Lucene's own count the deleted versions
        assertThat(new IndexSearcher(reader).collectionStatistics(StoreFields.TEXT).docCount()).isEqualTo(6);

        TermStatistics choir = termStatistics(s, CHOIR);
        TermStatistics choirLive = termStatistics(plain, CHOIR);
        assertThat(List.of(choir.docFreq(), choir.totalTermFreq()))
            .isEqualTo(List.of(choirLive.docFreq(), choirLive.totalTermFreq()))
            .isEqualTo(List.of(2L, 2L));
        // a term only deleted documents hold scores nothing; it still gets valid statistics
        assertThat(termStatistics(s, GONE).docFreq()).isEqualTo(1);
        // another field keeps Lucene's own statistics
        assertThat(s.collectionStatistics("id").docCount()).isEqualTo(6);
        assertThat(live.kept()).isEqualTo(1);
      }

      reader.close();
      assertThat(live.kept()).as("the reader of the segment with deletes closed").isZero();
    }
  }

  /** The term's statistics as Lucene's term weight asks for them, from every segment's look-up. */
  private static TermStatistics termStatistics(IndexSearcher s, Term term) throws java.io.IOException {
    TermStates states = TermStates.build(s, term, true);
    return s.termStatistics(term, states.docFreq(), states.totalTermFreq());
  }

  private static Document doc(String id, String text) {
    Document d = new Document();
    d.add(new StringField("id", id, Field.Store.NO));
    d.add(new TextField(StoreFields.TEXT, text, Field.Store.NO));
    return d;
  }
}
