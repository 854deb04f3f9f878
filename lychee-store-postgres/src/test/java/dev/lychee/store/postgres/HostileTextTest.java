package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.record;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL's own query syntax ({@code & | ! <-> :* :A}, quotes, backslashes, casts) and text the
 * {@code text} type cannot hold: never an error, never a match the words do not justify.
 */
class HostileTextTest {
  private RecordStore store;

  @BeforeEach
  void open() {
    store = PostgresRecordStore.open(TestPostgres.get().url(),
        PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2).build());
  }

  @AfterEach
  void close() {
    store.close();
  }

  static final List<String> TSQUERY_SYNTAX = List.of("a & b", "a | b", "!a", "a <-> b", "a <2> b", "a:*", "a:A",
      "a:AB*", "'a'", "''", "'''", "a\\'b", "\\", "(a | b) & !c", "a & (", "|", "&&", "!!", "<->", ":*",
      "'; DROP TABLE turns; --", "$1", "?", ":ns", ":term0", "::tsquery", "a::text", "E'\\x00'", "null", "NULL",
      "plainto_tsquery('simple', 'x')", "to_tsquery('a & b')", "@@", "%s%s%s", "{{a}}", "${x}");

  @Test
  void queryOperatorsAreWordsOrSeparatorsNeverSyntax() {
    store.appendTurns("ns", "s", List.of(turn("ns", "s", 0, "alpha beta gamma"), turn("ns", "s", 1, "null term0 ns text")));
    StoreWrites.records(store, "ns", List.of(record("ns", "Alpha and delta.", TurnRef.of("s", 0))));
    for (String q : TSQUERY_SYNTAX) {
      for (TextField f : TextField.values()) {
        List<ScoredId> hits = store.searchText("ns", f, q, 5);
        assertThat(hits).as("[%s]", q).allSatisfy(h -> assertThat(h.score()).isPositive());
      }
    }
    // an operator-laden query matches by its words only: "!alpha" still finds alpha (no negation)
    assertThat(store.searchText("ns", TextField.TURNS, "!alpha", 5)).extracting(ScoredId::id).containsExactly("episode:s:0");
    assertThat(store.searchText("ns", TextField.TURNS, "alpha & !gamma", 5)).extracting(ScoredId::id)
        .containsExactly("episode:s:0");
    assertThat(store.searchText("ns", TextField.TURNS, "a:*", 5)).as("no prefix matching").isEmpty();
    assertThat(store.searchText("ns", TextField.TURNS, ":term0", 5)).extracting(ScoredId::id)
        .containsExactly("episode:s:1");
    assertThat(store.searchText("ns", TextField.TURNS, "'; DROP TABLE turns; --", 5)).isEmpty();
    assertThat(store.countTurns("ns")).isEqualTo(2);
  }

  @Test
  void textWithNulAndTheEscapeCharacterRoundTrips() {
    String nasty = "before\u0000after \uE000 and \uE0000 and \\0 'quoted' \"double\"";
    RawTurn t = new RawTurn("ns", TurnRef.of("s", 0), Role.USER, "Sp\u0000eaker", nasty, null);
    store.appendTurns("ns", "s", List.of(t));
    assertThat(store.turn("ns", t.ref())).contains(t);
    var r = record("ns", "A record with a \u0000 inside.", TurnRef.of("s", 0));
    StoreWrites.records(store, "ns", List.of(r));
    assertThat(store.records("ns", List.of(r.id()))).containsExactly(r);
    assertThat(store.searchText("ns", TextField.TURNS, "after", 5)).extracting(ScoredId::id).containsExactly(t.id());
  }
}
