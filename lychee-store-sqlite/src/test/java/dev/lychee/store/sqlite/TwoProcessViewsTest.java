package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.DateRange;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.TurnRange;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What round twenty keeps in memory between recalls, a namespace's temporal nodes ({@link
 * NodesByKind}) and the document frequencies counted from the held postings ({@link
 * Fts5Statistics}), shows a second process's writes in this process's next read: another JVM
 * ({@link ViewWriterChild}) appends a turn and commits a record and a temporal node of a new day
 * while this one holds both views of the namespace.
 */
class TwoProcessViewsTest {
  @TempDir Path dir;

  @Test
  @Timeout(180)
  void anotherProcesssWritesShowInTheNextRead() throws Exception {
    Path file = dir.resolve("shared.db");
    try (SqliteRecordStore store = new SqliteRecordStore(SqliteDatabase.open(file, SqliteRecordStoreTest.quick()))) {
      store.appendTurns("a", "s", List.of(turn("a", "s", 0, "We went hiking in May."),
          turn("a", "s", 1, "The marathon is in June, the hiking was fun.")));
      MemoryRecord r = record("a", "Nadia went hiking in May.", TurnRef.of("s", 0));
      LocalDate day = LocalDate.of(2023, 5, 3);
      StoreWrites.encode(store, "a", List.of(r), List.of(new EvidenceNode(null, "a", NodeKind.TEMPORAL, "day:" + day,
          "day", "hiking", List.of(r.id()), List.of("s"), List.of(), List.of(), DateRange.day(day),
          List.of(new TurnRange("s", 0, 0)))));
      FtsSearch fts = new FtsSearch(new CachedReads(store.database()), new TurnBm25(store.database()),
          new RecordBm25(store.database()));

      // both views held: the temporal nodes and the searches' counts (the one namespace covers the table)
      assertThat(store.nodes("a", NodeKind.TEMPORAL)).extracting(EvidenceNode::key).containsExactly("day:" + day);
      assertSameAsFts5(store, fts, "hiking marathon");

      Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
          System.getProperty("java.class.path"), ViewWriterChild.class.getName(), file.toString(), "a")
          .redirectErrorStream(true).start();
      assertThat(child.waitFor(150, TimeUnit.SECONDS)).isTrue();
      String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(out).as(out).contains("done");
      assertThat(child.exitValue()).isZero();

      assertThat(store.nodes("a", NodeKind.TEMPORAL)).extracting(EvidenceNode::key)
          .containsExactly("day:" + day, "day:" + ViewWriterChild.DAY);
      // "marathon" is in one more turn and one more record now: its frequency and every score move
      assertSameAsFts5(store, fts, "hiking marathon");
      assertThat(store.searchText("a", TextField.TURNS, ViewWriterChild.WORD, 10)).hasSize(2);
      assertThat(store.searchText("a", TextField.RECORDS, ViewWriterChild.WORD, 10)).hasSize(1);
    }
  }

  /** The store's lexical hits are FTS5's own ranking, scores included (document frequencies as FTS5 counts them). */
  private static void assertSameAsFts5(SqliteRecordStore store, FtsSearch fts, String q) {
    for (String term : LexicalText.terms(q)) {
      assertThat(store.searchText("a", TextField.TURNS, term, 10))
          .isEqualTo(fts.sql("a", FtsSearch.TURNS, LexicalText.query(term), 10));
      assertThat(store.searchText("a", TextField.RECORDS, term, 10))
          .isEqualTo(fts.sql("a", FtsSearch.RECORDS, LexicalText.query(term), 10));
    }
  }
}
