package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.record;
import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A full-text query leaves out the question's function words when it holds other words, so a text
 * that shares only "when", "did" or "a" with the question is neither ranked nor returned; a query
 * of nothing but function words still searches with them.
 */
class FunctionWordsTest {
  private RecordStore store;

  @BeforeEach
  void open() {
    store = PostgresRecordStore.open(TestPostgres.get().url(),
        PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2).build());
    store.appendTurns("ns", "s", List.of(
        turn("ns", "s", 0, "When did you and I do that, and where was it? It was a day like any other."),
        turn("ns", "s", 1, "Rafael ran the relay race in June."),
        turn("ns", "s", 2, "The race was long.")));
    StoreWrites.records(store, "ns", List.of(
        record("ns", "When it was, it was what it was, and that is all there is to it.", TurnRef.of("s", 0)),
        record("ns", "Rafael ran a relay race.", TurnRef.of("s", 1))));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void textsSharingOnlyFunctionWordsWithTheQuestionAreNotHits() {
    String question = "When did Rafael run a relay race?";
    assertThat(store.searchText("ns", TextField.TURNS, question, 5)).extracting(ScoredId::id)
        .containsExactly("episode:s:1", "episode:s:2");
    assertThat(store.searchTexts("ns", TextField.TURNS, List.of(question, "Was it a race?"), 5))
        .extracting(l -> l.stream().map(ScoredId::id).toList())
        .containsExactly(List.of("episode:s:1", "episode:s:2"), List.of("episode:s:1", "episode:s:2"));
    assertThat(store.searchText("ns", TextField.RECORDS, question, 5)).singleElement()
        .satisfies(h -> assertThat(h.id()).isNotEqualTo(store.searchText("ns", TextField.RECORDS, "When was it?", 5)
            .get(0).id()));
  }

  @Test
  void aQueryOfFunctionWordsAloneStillSearchesWithThem() {
    assertThat(store.searchText("ns", TextField.TURNS, "When was it?", 5)).extracting(ScoredId::id)
        .startsWith("episode:s:0");
    assertThat(store.searchText("ns", TextField.RECORDS, "When was it?", 5)).isNotEmpty();
  }
}
