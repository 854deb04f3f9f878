package dev.lychee.store.sqlite;

import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.RawTurn;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The document frequencies the Java bm25 rankings use ({@link Fts5Statistics}) are FTS5's own
 * {@code count(*) ... MATCH} numbers, whether they come from the postings the searches hold (round
 * twenty: when those cover the table) or from FTS5: across namespaces, appends and merges here and
 * in another process (a second database over the file), forgetting, and tokens FTS5's {@code
 * unicode61} splits or folds otherwise than the store's tokenizer. Once the held postings cover the
 * table, a search runs no {@code MATCH} count.
 */
class DocumentFrequencyTest {
  private static final String[] WORDS = {"the", "and", "it", "to", "a", "e", "t", "stop", "cafe", "caf", "naive",
      "lychee", "museum", "violin", "sunrise", "2023", "x", "stra", "istanbul", "tulips"};
  /** Terms that fit no stretch of an odd token, so that the held copies answer them. */
  private static final String[] PLAIN = {"lychee", "museum", "violin", "sunrise", "tulips", "2023", "the", "and"};
  /** Tokens FTS5 may read otherwise: precomposed, decomposed (a combining mark), long s, sharp s, dotted capital I. */
  private static final String[] ODD = {"café", "cafe\u0301", "\u017Ftop", "naïve", "straße", "İstanbul", "x²", "e\u0301t\u00e9", "to\uA794stop"};

  @TempDir Path dir;
  private Path file;
  private SqliteDatabase db;
  private SqliteRecordStore store;
  private SqliteRecordStore other;
  private TurnBm25 turns;
  private RecordBm25 records;
  private AtomicInteger matchCounts;
  private final Random random = new Random(20);

  @BeforeEach
  void open() {
    file = dir.resolve("df.db");
    db = SqliteDatabase.open(file, SqliteRecordStoreTest.quick());
    store = new SqliteRecordStore(db);
    other = new SqliteRecordStore(SqliteDatabase.open(file, SqliteRecordStoreTest.quick()));
    turns = new TurnBm25(db);
    records = new RecordBm25(db);
    // the MATCH counts (the statistics' other reads name the tables' "_data" shadows)
    matchCounts = TableStatements.count(db, "turns_fts", "records_fts");
  }

  @AfterEach
  void close() {
    store.close();
    other.close();
  }

  private String sentence(boolean odd) {
    StringBuilder sb = new StringBuilder();
    int n = 1 + random.nextInt(12);
    for (int i = 0; i < n; i++) {
      String w = odd && random.nextInt(5) == 0 ? ODD[random.nextInt(ODD.length)] : WORDS[random.nextInt(WORDS.length)];
      sb.append(i == 0 ? "" : " ").append(random.nextInt(7) == 0 ? w.toUpperCase() : w);
    }
    return sb.append('.').toString();
  }

  private void append(SqliteRecordStore into, String ns, String session, int n, boolean odd) {
    List<RawTurn> batch = new ArrayList<>();
    int from = into.nextTurnIndex(ns, session);
    for (int i = from; i < from + n; i++) {
      batch.add(turn(ns, session, i, sentence(odd)));
    }
    into.appendTurns(ns, session, batch);
  }

  /** Records 0..n-1 of the namespace; put again, they merge under their seq with a new text. */
  private void put(SqliteRecordStore into, String ns, String session, int n, boolean odd) {
    List<MemoryRecord> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      batch.add(new MemoryRecord("r-" + i, ns, MemoryType.FACT, sentence(odd), List.of(), List.of(),
          TemporalScope.NONE, List.of(TurnRef.of(session, i)), session, session + ":0-9", SourceRole.USER, null));
    }
    StoreWrites.records(into, ns, batch);
  }

  /** The terms of {@code words} as the searches see them (lower-cased tokens). */
  private static List<String> terms(String[]... words) {
    Set<String> out = new LinkedHashSet<>();
    for (String[] list : words) {
      for (String w : list) {
        out.addAll(LexicalText.terms(w));
      }
    }
    return List.copyOf(out);
  }

  /** As {@link #searchAndCheck(List, List)} for every term, the odd ones included. */
  private int searchAndCheck(List<String> namespaces) {
    return searchAndCheck(namespaces, terms(WORDS, ODD));
  }

  /**
   * Searches each namespace for {@code vocabulary}, one term at a time, then checks every count the
   * statistics hold against FTS5's; returns the MATCH counts the searches ran.
   */
  private int searchAndCheck(List<String> namespaces, List<String> vocabulary) {
    // every namespace's copies caught up first (with a term outside the vocabulary), so that the
    // vocabulary's counts may come from them
    for (String ns : namespaces) {
      turns.search(ns, List.of("zzz"), 5);
      records.search(ns, List.of("zzz"), 5);
    }
    matchCounts.set(0);
    for (String ns : namespaces) {
      for (String t : vocabulary) {
        turns.search(ns, List.of(t), 5);
        records.search(ns, List.of(t), 5);
      }
    }
    int ran = matchCounts.get();
    long version = db.dataVersion();
    for (String t : vocabulary) {
      String match = "\"" + t + "\"";
      assertThat(turns.statistics().at(version).documentsWith(t)).as("turns %s", t).isEqualTo(fts5Count("turns_fts", match));
      assertThat(records.statistics().at(version).documentsWith(t)).as("records %s", t)
          .isEqualTo(fts5Count("records_fts", match));
    }
    return ran;
  }

  private long fts5Count(String table, String match) {
    return db.read(h -> h.createQuery("SELECT count(*) FROM " + table + " WHERE " + table + " MATCH ?")
        .bind(0, match).mapTo(Long.class).one());
  }

  @Test
  void oneNamespaceHeldAnswersEveryPlainTermWithoutMatchCounts() {
    append(store, "a", "s1", 80, false);
    put(store, "a", "s1", 40, false);
    turns.search("a", List.of("lychee"), 5);
    records.search("a", List.of("lychee"), 5);
    assertThat(searchAndCheck(List.of("a"), terms(WORDS))).as("MATCH counts once the copy covers the table").isZero();

    // merges rewrite records under their seq (dead slots), new turns: still covered, still exact
    put(store, "a", "s2", 30, false);
    append(store, "a", "s2", 20, false);
    assertThat(searchAndCheck(List.of("a"), terms(WORDS))).isZero();
  }

  @Test
  void countsAreFts5sAcrossNamespacesProcessesForgettingAndOddTokens() {
    for (String ns : List.of("a", "b")) {
      append(store, ns, "s1", 60, true);
      append(store, ns, "s2", 40, true);
      put(store, ns, "s1", 30, true);
    }
    // b is not held yet: the counts come from FTS5
    assertThat(searchAndCheck(List.of("a"))).isPositive();
    searchAndCheck(List.of("a", "b"));

    // another process appends and merges; then forgets a session and a namespace
    append(other, "b", "s3", 25, true);
    put(other, "a", "s2", 20, true);
    checkBoth();
    other.forget("a", "s1");
    checkBoth();
    other.forget("b");
    checkBoth();
    append(other, "b", "s4", 10, false);
    checkBoth();
  }

  /** Both namespaces held: the plain terms need no MATCH count, and every count is FTS5's. */
  private void checkBoth() {
    assertThat(searchAndCheck(List.of("a", "b"), terms(PLAIN))).isZero();
    searchAndCheck(List.of("b", "a"));
  }

  @Test
  void onlyTheTermsAnOddTokenMayHideAreCountedByFts5() {
    append(store, "a", "s1", 40, false);
    store.appendTurns("a", "s9", List.of(turn("a", "s9", 0, "A café in Paris.")));
    turns.search("a", List.of("zzz"), 5);
    matchCounts.set(0);
    // "a" fits a stretch of "café" (é may be anything to FTS5), "the" and "museum" fit none
    turns.search("a", List.of("the", "a", "museum"), 5);
    assertThat(matchCounts.get()).isEqualTo(1);
    long version = db.dataVersion();
    for (String t : List.of("the", "a", "museum")) {
      assertThat(turns.statistics().at(version).documentsWith(t)).isEqualTo(fts5Count("turns_fts", "\"" + t + "\""));
    }
  }

  @Test
  void tokensOutsideAsciiMayHideOnlyTermsThatFitThem() {
    Bm25Postings p = new Bm25Postings();
    p.add("d1", List.of("café", "the"));
    p.add("d2", List.of("ſtop"));
    assertThat(p.mayHide("caf")).isTrue();
    assertThat(p.mayHide("cafe")).isTrue();
    assertThat(p.mayHide("stop")).isTrue();
    assertThat(p.mayHide("top")).isTrue();
    assertThat(p.mayHide("the")).isFalse();
    assertThat(p.mayHide("cafes")).isFalse();
    assertThat(p.mayHide("tulips")).isFalse();
    p.clear();
    assertThat(p.mayHide("cafe")).isFalse();
  }
}
