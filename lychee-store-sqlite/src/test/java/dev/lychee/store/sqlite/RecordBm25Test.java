package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.ScoredId;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RecordBm25} must rank records exactly as FTS5's own {@code bm25()} query does: the same
 * ids in the same order with the same scores, across namespaces that share the table's statistics,
 * after new records, after records merged in place (their entities and tags, hence their search
 * text, grow under the same {@code seq}), after a session is forgotten (records deleted and
 * rewritten), after a namespace is forgotten, and after enough merges to read a namespace again.
 */
class RecordBm25Test {
  private static final String[] COMMON = {"the", "and", "it", "to", "a", "i", "you", "was", "that", "is"};
  private static final String[] RARE = {"lychee", "painting", "sunrise", "marathon", "guitar", "adoption",
      "camping", "pottery", "violin", "hiking", "museum", "bracelet", "festival", "sweden", "tulips"};
  private static final List<String> QUESTIONS = List.of("When did Nadia go to the museum?", "the and it",
      "lychee", "What did she paint at sunrise and the festival?", "violin guitar pottery hiking camping",
      "unknownword", "Was it the marathon that you ran in Sweden?", "fact preference about tulips");

  @TempDir Path dir;
  private SqliteRecordStore store;
  private FtsSearch fts;
  private RecordBm25 bm25;
  private final Random random = new Random(11);

  @BeforeEach
  void open() {
    SqliteDatabase db = SqliteDatabase.open(dir.resolve("r.db"), SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    fts = new FtsSearch(new CachedReads(db), new TurnBm25(db), new RecordBm25(db));
    bm25 = new RecordBm25(db);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private String word() {
    String w = random.nextInt(4) == 0 ? RARE[random.nextInt(RARE.length)] : COMMON[random.nextInt(COMMON.length)];
    return random.nextInt(9) == 0 ? w.toUpperCase() : w;
  }

  private String sentence() {
    StringBuilder sb = new StringBuilder(random.nextBoolean() ? "Nadia " : "");
    int n = 1 + random.nextInt(20);
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : " ").append(word());
    }
    return sb.append('.').toString();
  }

  private List<String> words(int max) {
    List<String> out = new ArrayList<>();
    for (int i = random.nextInt(max + 1); i > 0; i--) {
      out.add(word());
    }
    return out;
  }

  /** Record {@code n} of the namespace, with evidence in {@code session}; put again, it merges. */
  private MemoryRecord record(String ns, int n, String session) {
    MemoryType type = random.nextBoolean() ? MemoryType.FACT : MemoryType.PREFERENCE;
    return new MemoryRecord("r-" + n, ns, type, sentence(), words(3), words(2), TemporalScope.NONE,
        List.of(TurnRef.of(session, n)), session, session + ":0-9", SourceRole.USER, null);
  }

  private void put(String ns, String session, int from, int n) {
    List<MemoryRecord> records = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      records.add(record(ns, i, session));
    }
    StoreWrites.records(store, ns, records);
  }

  private void assertSameAsFts5(String ns) {
    for (String q : QUESTIONS) {
      for (int k : new int[] {1, 5, 30, 400}) {
        List<ScoredId> expected = fts.sql(ns, FtsSearch.RECORDS, LexicalText.query(q), k);
        List<ScoredId> actual = bm25.search(ns, LexicalText.queryTerms(q), k);
        assertThat(actual).extracting(ScoredId::id).as("%s k=%d", q, k)
            .containsExactlyElementsOf(expected.stream().map(ScoredId::id).toList());
        for (int i = 0; i < expected.size(); i++) {
          assertThat(actual.get(i).score()).isCloseTo(expected.get(i).score(), within(1e-12));
        }
      }
    }
    // the store's own search is this one
    String q = "the lychee museum";
    assertThat(store.searchText(ns, TextField.RECORDS, q, 30))
        .containsExactlyElementsOf(fts.sql(ns, FtsSearch.RECORDS, LexicalText.query(q), 30));
  }

  @Test
  void ranksAsFts5DoesAcrossNamespacesNewAndMergedRecords() {
    put("a", "s1", 0, 120);
    put("b", "s1", 0, 80);
    assertSameAsFts5("a");
    assertSameAsFts5("b");
    // new records after a search
    put("a", "s2", 120, 60);
    assertSameAsFts5("a");
    // the same ids again: merged in place, with more entities and tags to search
    put("a", "s3", 0, 100);
    put("b", "s2", 40, 80);
    assertSameAsFts5("a");
    assertSameAsFts5("b");
    assertThat(bm25.search("nobody", LexicalText.queryTerms("lychee museum"), 5)).isEmpty();
  }

  @Test
  void forgettingASessionOrANamespaceIsSeen() {
    put("a", "s1", 0, 80);
    put("a", "s2", 60, 60); // records 60..79 hold evidence in both sessions
    put("b", "s1", 0, 50);
    assertSameAsFts5("a");
    assertSameAsFts5("b");
    store.forget("a", "s1"); // 0..59 deleted, 60..79 rewritten without s1
    assertSameAsFts5("a");
    put("a", "s3", 200, 30); // may reuse the seqs of deleted records
    assertSameAsFts5("a");
    store.forget("b");
    assertSameAsFts5("b");
    assertThat(bm25.search("b", LexicalText.queryTerms("the and it"), 10)).isEmpty();
    put("b", "s4", 0, 20);
    assertSameAsFts5("b");
  }

  @Test
  void manyMergesReadTheNamespaceAgainWithTheSameRanking() {
    put("a", "s1", 0, 1200);
    assertSameAsFts5("a");
    put("a", "s2", 0, 1200);
    assertSameAsFts5("a");
    put("a", "s3", 0, 1200); // two thirds of the slots dead: read again
    assertSameAsFts5("a");
    put("a", "s4", 1200, 10);
    assertSameAsFts5("a");
  }

  @Test
  void anEmptyStoreFindsNothing() {
    assertThat(bm25.search("a", LexicalText.queryTerms("the lychee"), 10)).isEmpty();
  }
}
