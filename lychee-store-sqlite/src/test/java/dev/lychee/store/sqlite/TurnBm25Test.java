package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TurnBm25} must rank turns exactly as FTS5's own {@code bm25()} query does: the same ids in
 * the same order with the same scores (to the last bits of a logarithm), across namespaces that
 * share the table's statistics, after appends between searches and after a session is forgotten.
 */
class TurnBm25Test {
  private static final String[] COMMON = {"the", "and", "it", "to", "a", "i", "you", "was", "that", "is"};
  private static final String[] RARE = {"lychee", "painting", "sunrise", "marathon", "guitar", "adoption",
      "camping", "pottery", "violin", "hiking", "museum", "bracelet", "festival", "sweden", "tulips"};

  @TempDir Path dir;
  private SqliteDatabase db;
  private SqliteRecordStore store;
  private FtsSearch fts;
  private TurnBm25 bm25;
  private final Random random = new Random(21);

  @BeforeEach
  void open() {
    db = SqliteDatabase.open(dir.resolve("t.db"), SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    CachedReads reads = new CachedReads(db);
    fts = new FtsSearch(reads, new TurnBm25(db), new RecordBm25(db));
    bm25 = new TurnBm25(db);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private String sentence() {
    StringBuilder sb = new StringBuilder(random.nextBoolean() ? "Nadia: " : "");
    int n = 1 + random.nextInt(25);
    for (int i = 0; i < n; i++) {
      String w = random.nextInt(4) == 0 ? RARE[random.nextInt(RARE.length)] : COMMON[random.nextInt(COMMON.length)];
      sb.append(i == 0 ? "" : " ").append(random.nextInt(9) == 0 ? w.toUpperCase() : w);
    }
    return sb.append(random.nextBoolean() ? "." : "!").toString();
  }

  private void append(String ns, String session, int from, int n) {
    List<RawTurn> turns = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      turns.add(turn(ns, session, i, sentence()));
    }
    store.appendTurns(ns, session, turns);
  }

  private void assertSameAsFts5(String ns) {
    assertThat(fts.sql(ns, FtsSearch.TURNS, LexicalText.query("the lychee"), 30)).hasSize(30);
    List<String> questions = List.of("When did Nadia go to the museum?", "the and it", "lychee",
        "What did she paint at sunrise and the festival?", "violin guitar pottery hiking camping", "unknownword",
        "Was it the marathon that you ran in Sweden?");
    for (String q : questions) {
      for (int k : new int[] {1, 5, 30, 400}) {
        List<ScoredId> expected = fts.sql(ns, FtsSearch.TURNS, LexicalText.query(q), k);
        List<ScoredId> actual = bm25.search(ns, LexicalText.queryTerms(q), k);
        assertThat(actual).extracting(ScoredId::id).as("%s k=%d", q, k)
            .containsExactlyElementsOf(expected.stream().map(ScoredId::id).toList());
        for (int i = 0; i < expected.size(); i++) {
          assertThat(actual.get(i).score()).isCloseTo(expected.get(i).score(), within(1e-12));
        }
      }
    }
  }

  @Test
  void ranksAsFts5DoesAcrossNamespacesAppendsAndForgetting() {
    append("a", "s1", 0, 120);
    append("b", "s1", 0, 80);
    assertSameAsFts5("a");
    assertSameAsFts5("b");
    // appends after a search: the postings catch up with the new turns and the new statistics
    append("a", "s2", 0, 60);
    append("b", "s2", 0, 200);
    assertSameAsFts5("a");
    assertSameAsFts5("b");
    // a forgotten session: the namespace is read again
    store.forget("a", "s1");
    assertSameAsFts5("a");
    append("a", "s3", 0, 30);
    assertSameAsFts5("a");
    assertThat(bm25.search("a", LexicalText.queryTerms("lychee museum"), 5)).isNotEmpty();
    assertThat(bm25.search("nobody", LexicalText.queryTerms("lychee museum"), 5)).isEmpty();
  }

  @Test
  void theNewestSessionForgottenAndAsManyTurnsAppendedIsReadAgain() {
    append("a", "s1", 0, 50);
    append("a", "s2", 0, 40);
    assertSameAsFts5("a");
    // SQLite hands the forgotten last rowids to the next inserts: the count and the largest rowid
    // come back to what the postings saw, only the deletion count tells the turns apart
    store.forget("a", "s2");
    append("a", "s3", 0, 40);
    assertSameAsFts5("a");
    assertThat(bm25.search("a", LexicalText.queryTerms("the lychee museum"), 400)).extracting(ScoredId::id)
        .noneMatch(id -> id.contains(":s2:")).anyMatch(id -> id.contains(":s3:"));
  }

  @Test
  void anEmptyStoreFindsNothing() {
    assertThat(bm25.search("a", LexicalText.queryTerms("the lychee"), 10)).isEmpty();
  }

  @Test
  void readsSqliteVarints() {
    int[] at = {0};
    assertThat(Fts5Statistics.varint(new byte[] {0x05}, at)).isEqualTo(5);
    at[0] = 0;
    assertThat(Fts5Statistics.varint(new byte[] {(byte) 0x81, 0x00}, at)).isEqualTo(128);
    assertThat(at[0]).isEqualTo(2);
  }
}
