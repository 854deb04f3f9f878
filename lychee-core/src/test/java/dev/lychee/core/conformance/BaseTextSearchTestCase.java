package dev.lychee.core.conformance;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of {@link dev.lychee.api.spi.TextSearch}: lexical search: ranked, capped, and never thrown by user syntax.
 * {@link BaseRecordStoreTestCase} runs it against every backend; random data comes from fixed
 * seeds so that a failure reproduces.
 */
public abstract class BaseTextSearchTestCase extends StoreCase {

  @Test
  void lexicalSearchRanksTurnsAndRecords() {
    store.appendTurns("ns", "s", List.of(
        turn("ns", "s", 0, "We talked about the weather today."),
        turn("ns", "s", 1, "Nadia went to the community choir rehearsal yesterday, a choir rehearsal she loves."),
        turn("ns", "s", 2, "The rehearsal room of the theatre is painted red."),
        turn("ns", "s", 3, "Lunch was pasta.")));
    List<ScoredId> hits = store.searchText("ns", TextField.TURNS, "choir rehearsal", 10);
    assertThat(hits).extracting(ScoredId::id).containsExactly("episode:s:1", "episode:s:2");
    assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score()).isPositive();
    assertThat(store.searchText("ns", TextField.TURNS, "REHEARSAL", 1)).hasSize(1);
    // speaker prefix is part of the searchable content
    assertThat(store.searchText("ns", TextField.TURNS, "nadia", 10)).extracting(ScoredId::id)
        .contains("episode:s:0", "episode:s:2");

    MemoryRecord pref = record("ns", "Rafael likes pottery.", MemoryType.PREFERENCE, TemporalScope.NONE,
        List.of("Rafael"), List.of("hobby"), TurnRef.of("s", 3));
    MemoryRecord fact = record("ns", "The bridge is red.", MemoryType.FACT, TemporalScope.NONE,
        List.of("bridge"), List.of("color"), TurnRef.of("s", 2));
    StoreWrites.records(store, "ns", List.of(pref, fact));
    assertThat(store.searchText("ns", TextField.RECORDS, "pottery", 5)).extracting(ScoredId::id).containsExactly(pref.id());
    assertThat(store.searchText("ns", TextField.RECORDS, "hobby", 5)).extracting(ScoredId::id).containsExactly(pref.id());
    assertThat(store.searchText("ns", TextField.RECORDS, "preference", 5)).extracting(ScoredId::id).containsExactly(pref.id());
    assertThat(store.searchText("ns", TextField.RECORDS, "nothing matches zzz", 5)).isEmpty();
    assertThat(store.searchText("ns", TextField.RECORDS, "red rafael", 1)).hasSize(1);
  }

  @Test
  void lexicalSearchResultsAreSortedAndCapped() {
    Random rnd = new Random(11);
    store.appendTurns("ns", "s", StoreFixtures.turns("ns", "s", 0, 60, rnd, "common"));
    List<ScoredId> hits = store.searchText("ns", TextField.TURNS, "apple river guitar common", 7);
    assertThat(hits).hasSize(7);
    for (int i = 1; i < hits.size(); i++) {
      assertThat(hits.get(i - 1).score()).isGreaterThanOrEqualTo(hits.get(i).score());
    }
    assertThat(hits).extracting(ScoredId::id).doesNotHaveDuplicates();
  }

  @Test
  void batchedSearchesEqualSingleSearches() {
    Random rnd = new Random(12);
    store.appendTurns("ns", "s", StoreFixtures.turns("ns", "s", 0, 60, rnd, "common"));
    StoreWrites.records(store, "ns", List.of(
        record("ns", "Rafael likes pottery and the river.", TurnRef.of("s", 3)),
        record("ns", "The guitar by the river is common.", TurnRef.of("s", 4)),
        record("ns", "Apple pie for lunch.", TurnRef.of("s", 5))));
    // ties, a query with no searchable term, a repeated query, hostile syntax and no hits at all
    List<String> queries = List.of("apple river guitar common", "\"*()", "common", "river", "common",
        "a;DROP TABLE turns;--", "nothing matches zzz", "");
    for (TextField f : TextField.values()) {
      for (int k : new int[] {1, 3, 50}) {
        List<List<ScoredId>> all = store.searchTexts("ns", f, queries, k);
        assertThat(all).hasSize(queries.size());
        for (int i = 0; i < queries.size(); i++) {
          assertThat(all.get(i)).as("%s, query [%s], k %d", f, queries.get(i), k)
              .containsExactlyElementsOf(store.searchText("ns", f, queries.get(i), k));
        }
      }
      assertThat(store.searchTexts("ns", f, List.of(), 5)).isEmpty();
    }
    assertThat(store.searchTexts("ns", TextField.TURNS, List.of("common"), 5).get(0)).isNotEmpty();
    assertThat(store.searchTexts("nobody", TextField.TURNS, List.of("common", "river"), 5)).containsExactly(List.of(), List.of());
  }

  /** Query strings full of search-engine syntax, quotes and scripts. */
  protected static final List<String> HOSTILE = List.of("", " ", "\"", "\"\"", "'", "*", "**", "a*", "*a",
      "AND", "OR", "NOT", "NEAR", "NEAR(a b)", "a AND b", "a OR", "OR b", "(", ")", "((a)", "a)", ":", "a:b",
      "col:value", "^", "-a", "+a", "a -b", "{a}", "[a]", "a\"b", "\"unbalanced", "nadia's", "l'été",
      "support* group\"", "\\", "\\\"", "%", "_", ";", "--", "/* */", "a;DROP TABLE turns;--",
      "漢字", "가나다", "Привет мир", "مرحبا", "😀🍒", "\u0000", "\n\t", "NEAR/3", "a^2", "1e10", "0",
      "x".repeat(10_000), "a OR ".repeat(500), "\"" + "b ".repeat(300));

  @Test
  void hostileLexicalQueriesNeverThrow() {
    store.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "Nadia's l'été AND NEAR choir rehearsal 漢字 Привет"),
        turn("ns", "s", 1, "plain text here")));
    StoreWrites.records(store, "ns", List.of(record("ns", "Nadia's AND OR NOT group: (yes) \"quoted\" 漢字.", TurnRef.of("s", 0))));
    store.appendTurns("other", "s", List.of(turn("other", "s", 0, "AND OR NOT NEAR nadia group 漢字 привет")));
    Set<String> mine = Set.of("episode:s:0", "episode:s:1");
    String myRecord = store.records("ns").get(0).id();
    for (String q : HOSTILE) {
      for (TextField f : TextField.values()) {
        List<ScoredId> hits = assertDoesNotThrow(() -> store.searchText("ns", f, q, 5), "query [" + q + "]");
        assertThat(hits).as("query [%s]", q).allSatisfy(h ->
            assertThat(f == TextField.TURNS ? mine.contains(h.id()) : h.id().equals(myRecord)).isTrue());
      }
    }
    assertThat(store.searchText("ns", TextField.TURNS, "", 5)).isEmpty();
    assertThat(store.searchText("ns", TextField.TURNS, "\"*()", 5)).isEmpty();
    assertThat(store.searchText("ns", TextField.TURNS, "l'été", 5)).extracting(ScoredId::id).contains("episode:s:0");
    assertThat(store.searchText("ns", TextField.TURNS, "Привет", 5)).extracting(ScoredId::id).contains("episode:s:0");
    assertThat(store.searchText("ns", TextField.RECORDS, "\"quoted\"", 5)).extracting(ScoredId::id).containsExactly(myRecord);
    assertThat(store.searchText("nobody", TextField.TURNS, "nadia", 5)).isEmpty();
  }
}
