package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lexical hits read their ids from doc values ({@link DocIds}); documents written before that
 * field existed (an index of an older version) still answer with their stored ids.
 */
class LuceneDocIdsTest {
  @TempDir Path dir;

  @Test
  void anIndexWrittenWithoutIdDocValuesAnswersTheSameBesideNewDocuments() throws Exception {
    List<RawTurn> old = List.of(
        Fixtures.turn("ns", "s1", 0, "we adopted a golden retriever puppy"),
        Fixtures.turn("ns", "s1", 1, "the puppy chewed the garden hose"),
        Fixtures.turn("ns", "s1", 2, "painting classes start on monday"));
    // the documents as the store wrote them before the id doc values: same fields, without it
    try (Directory d = FSDirectory.open(dir);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig(new EnglishAnalyzer()))) {
      List<Document> docs = new ArrayList<>();
      docs.add(withoutIdValues(StoreDocuments.session("ns", "s1", 1)));
      long seq = 2;
      for (RawTurn t : old) {
        docs.add(withoutIdValues(StoreDocuments.turn(t, seq++)));
      }
      w.addDocuments(docs);
      w.commit();
    }
    try (LuceneRecordStore store = new LuceneRecordStore(dir, TestConfigs.FAST)) {
      // a new document, written with the field, in a segment of its own
      store.appendTurns("ns", "s1", List.of(Fixtures.turn("ns", "s1", 3, "another puppy joined the golden one")));

      List<ScoredId> hits = store.searchText("ns", TextField.TURNS, "golden puppy", 10);

      assertThat(hits).extracting(ScoredId::id)
          .containsExactlyInAnyOrder(old.get(0).id(), old.get(1).id(), Fixtures.turn("ns", "s1", 3, "").id());
      assertThat(store.searchText("ns", TextField.TURNS, "painting", 10)).extracting(ScoredId::id)
          .containsExactly(old.get(2).id());
      // the order is the scores' order, whichever way each id was read
      assertThat(hits).isSortedAccordingTo((a, b) -> Double.compare(b.score(), a.score()));
    }
  }

  @Test
  void newDocumentsCarryTheIdAsDocValues() throws Exception {
    Document turn = StoreDocuments.turn(Fixtures.turn("ns", "s1", 0, "hello"), 1);

    assertThat(turn.getField(StoreFields.ID_VALUES).binaryValue().utf8ToString())
        .isEqualTo(turn.get(StoreFields.ID));
  }

  private static Document withoutIdValues(Document d) {
    d.removeFields(StoreFields.ID_VALUES);
    return d;
  }
}
