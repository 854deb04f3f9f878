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
 * Lexical hits read their ids, and reads by id their JSON, from doc values ({@link DocIds});
 * documents written before those fields existed (an index of an older version) still answer with
 * their stored fields.
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
      // reads by id decode the same values from the stored JSON (old) and the doc values (new)
      RawTurn fresh = Fixtures.turn("ns", "s1", 3, "another puppy joined the golden one");
      assertThat(store.turns("ns", List.of(fresh.ref(), old.get(1).ref(), old.get(0).ref())))
          .containsExactly(fresh, old.get(1), old.get(0));
    }
  }

  @Test
  void newDocumentsCarryTheIdAndTheJsonAsDocValues() throws Exception {
    Document turn = StoreDocuments.turn(Fixtures.turn("ns", "s1", 0, "hello"), 1);

    assertThat(turn.getField(StoreFields.ID_VALUES).binaryValue().utf8ToString())
        .isEqualTo(turn.get(StoreFields.ID));
    assertThat(turn.getField(StoreFields.JSON_VALUES).binaryValue().utf8ToString())
        .isEqualTo(turn.get(StoreFields.JSON));
  }

  private static Document withoutIdValues(Document d) {
    d.removeFields(StoreFields.ID_VALUES);
    d.removeFields(StoreFields.JSON_VALUES);
    return d;
  }
}
