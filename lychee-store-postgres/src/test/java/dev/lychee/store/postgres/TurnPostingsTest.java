package dev.lychee.store.postgres;

import static dev.lychee.core.conformance.StoreFixtures.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.RawTurn;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.TextField;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The turns' full-text search answered from an instance's postings (migration 3,
 * docs/defaults.md §3.3) gives exactly what the database's {@code ts_rank} query gives, sees the
 * turns and deletions of other instances, and reads turns stored before the migration.
 */
class TurnPostingsTest {
  /** Words of the random texts, a skewed mix of names, words, numbers and a non-ASCII word ({@link #text}). */
  static final String[] WORDS = {"nadia", "rafael", "race", "charity", "june", "painting", "lake",
      "camping", "adoption", "agency", "sunset", "pottery", "kids", "1st", "2pm", "2023", "dog", "x", "b12", "caf\u00e9"};

  private PostgresStoreConfig config;
  private PostgresRecordStore store;
  private PostgresRecordStore other;

  @BeforeEach
  void open() {
    config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2).build();
    store = TestPostgres.rawStore(TestPostgres.get().url(), config);
    other = TestPostgres.rawStore(TestPostgres.get().url(), config);
  }

  @AfterEach
  void close() {
    store.close();
    other.close();
  }

  /** A random text of {@code words} words, the first of {@link #WORDS} the most common. */
  static String text(Random rnd, int words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < words; i++) {
      // skewed: the first words are common, as speakers' names are
      b.append(WORDS[(int) (WORDS.length * Math.pow(rnd.nextDouble(), 2))]).append(i % 7 == 6 ? ". " : " ");
    }
    return b.toString();
  }

  private static List<RawTurn> turns(String ns, String session, int n, Random rnd) {
    List<RawTurn> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(turn(ns, session, i, text(rnd, 1 + rnd.nextInt(30))));
    }
    return out;
  }

  /** What the database answers for the same queries (the path every search took before). */
  private List<List<ScoredId>> database(String ns, List<String> queries, int k) {
    List<TextQuery> parsed = queries.stream().map(TextQuery::of).toList();
    return store.database().read(h -> new TurnTable().searchAll(h, ns, parsed, k));
  }

  @Test
  void localSearchGivesTheDatabasesHitsScoresAndOrderExactly() {
    Random rnd = new Random(21);
    for (int s = 0; s < 6; s++) {
      store.appendTurns("ns", "s" + s, turns("ns", "s" + s, 40, rnd));
    }
    // many occurrences (positions are capped at 256 per lexeme) and a very short turn
    store.appendTurns("ns", "long", List.of(turn("ns", "long", 0, "race ".repeat(300) + "lake"),
        turn("ns", "long", 1, "race")));
    other.appendTurns("other", "s0", List.of(turn("other", "s0", 0, "nadia race race lake")));
    int compared = 0;
    for (int q = 0; q < 200; q++) {
      List<String> queries = new ArrayList<>();
      for (int v = 0; v < 1 + rnd.nextInt(3); v++) {
        queries.add(v == 0 && q % 10 == 0 ? "When did Rafael go?" : text(rnd, 1 + rnd.nextInt(6)) + " nowhere");
      }
      int k = 1 + rnd.nextInt(60);
      List<List<ScoredId>> expected = database("ns", queries, k);
      assertThat(store.searchTexts("ns", TextField.TURNS, queries, k)).as("%s k %d", queries, k).isEqualTo(expected);
      assertThat(store.searchText("ns", TextField.TURNS, queries.get(0), k)).isEqualTo(expected.get(0));
      compared += expected.stream().mapToInt(List::size).sum();
    }
    assertThat(compared).as("hits compared").isGreaterThan(2000);
    assertThat(store.turnPostingLoads()).as("the namespace was read once").isEqualTo(1);
    // a term the server splits ("caf\u00e9" lower-cases differently, "1e5x" is two lexemes) is searched there
    assertThat(store.searchText("ns", TextField.TURNS, "caf\u00e9 1e5x", 10))
        .isEqualTo(database("ns", List.of("caf\u00e9 1e5x"), 10).get(0));
  }

  @Test
  void anotherInstancesTurnsAndDeletionsAreSeenByTheNextSearch() {
    store.appendTurns("ns", "a", List.of(turn("ns", "a", 0, "sunset over the lake")));
    assertThat(store.searchText("ns", TextField.TURNS, "lake", 10)).extracting(ScoredId::id)
        .containsExactly("episode:a:0");
    other.appendTurns("ns", "b", List.of(turn("ns", "b", 0, "the lake at dawn, the lake at dusk")));
    other.appendTurns("ns", "a", i -> List.of(turn("ns", "a", i, "lake")));
    assertThat(store.searchText("ns", TextField.TURNS, "lake", 10)).extracting(ScoredId::id)
        .containsExactly("episode:b:0", "episode:a:0", "episode:a:1");
    assertThat(store.turnPostingReplays()).as("caught up with the turns written since").isEqualTo(1);
    assertThat(store.turnPostingLoads()).isEqualTo(1);
    other.forget("ns", "b");
    assertThat(store.searchText("ns", TextField.TURNS, "lake", 10)).extracting(ScoredId::id)
        .containsExactly("episode:a:0", "episode:a:1");
    assertThat(store.turnPostingLoads()).as("a deletion makes the namespace read afresh").isEqualTo(2);
    other.forget("ns");
    assertThat(store.searchText("ns", TextField.TURNS, "lake", 10)).isEmpty();
    store.appendTurns("ns", "c", List.of(turn("ns", "c", 0, "a lake again")));
    assertThat(store.searchText("ns", TextField.TURNS, "lake", 10)).extracting(ScoredId::id)
        .containsExactly("episode:c:0");
    assertThat(store.searchText("none", TextField.TURNS, "lake", 10)).isEmpty();
  }

  @Test
  void turnsStoredBeforeTheMigrationAndByOlderReleasesAreFound() throws Exception {
    String schema = TestPostgres.freshSchema();
    PostgresStoreConfig old = PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).build();
    PostgresRecordStore before = new PostgresRecordStore(PostgresDatabase.open(TestPostgres.get().url(), old,
        new SchemaMigrations(List.of(SchemaMigrations.V1, SchemaMigrations.V2))));
    before.appendTurns("ns", "a", List.of(turn("ns", "a", 0, "pottery class"), turn("ns", "a", 1, "lake trip")));
    before.close();
    try (PostgresRecordStore after = TestPostgres.rawStore(TestPostgres.get().url(), old)) {
      assertThat(after.searchText("ns", TextField.TURNS, "pottery", 10)).extracting(ScoredId::id)
          .containsExactly("episode:a:0");
      // an instance of the older release inserts without a change number: the trigger stamps it
      try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement()) {
        st.execute("SET search_path TO " + schema);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO turns(namespace, session, idx, role, speaker, text,"
            + " time, tsv) VALUES ('ns', 'a', 2, 'user', NULL, 'pottery again', NULL, to_tsvector('simple', 'pottery again'))")) {
          ps.execute();
        }
        try (ResultSet rs = st.executeQuery("SELECT seq > 0 FROM turns WHERE namespace = 'ns' AND idx = 2")) {
          rs.next();
          assertThat(rs.getBoolean(1)).isTrue();
        }
      }
      assertThat(after.searchText("ns", TextField.TURNS, "pottery", 10)).extracting(ScoredId::id)
          .containsExactly("episode:a:0", "episode:a:2");
    }
  }

  @Test
  void plainTermsAreTheirOwnLexemeOnTheServer() throws Exception {
    Random rnd = new Random(13);
    String alphabet = "0123456789eeeabcdxz";
    int plain = 0;
    try (Connection c = TestPostgres.get().connect();
        PreparedStatement ps = c.prepareStatement("SELECT plainto_tsquery('simple', ?)::text")) {
      for (int i = 0; i < 3000; i++) {
        StringBuilder t = new StringBuilder();
        for (int j = 0; j < 1 + rnd.nextInt(7); j++) {
          t.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        }
        String term = t.toString();
        if (!TextPostings.plain(term)) {
          continue;
        }
        plain++;
        ps.setString(1, term);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertThat(rs.getString(1)).as(term).isEqualTo("'" + term + "'");
        }
      }
    }
    assertThat(plain).isGreaterThan(1000);
    assertThat(TextPostings.plain("1e5x")).isFalse();
    assertThat(TextPostings.plain("caf\u00e9")).isFalse();
    assertThat(TextPostings.plain("2pm")).isTrue();
  }
}
