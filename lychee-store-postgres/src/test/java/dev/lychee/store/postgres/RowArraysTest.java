package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rows bound as one array per column ({@link RowArrays}, round twenty-two) reach the server as the
 * same values one parameter per row did, so a row put through the fixed statements is stored as it
 * was before them.
 */
class RowArraysTest {
  private PostgresDatabase db;

  @BeforeEach
  void open() {
    db = PostgresDatabase.open(TestPostgres.get().url(),
        PostgresStoreConfig.builder().maxPoolSize(1).schema(TestPostgres.freshSchema()).build());
    db.acquire();
  }

  @AfterEach
  void close() {
    db.release();
  }

  /**
   * Date-times round to microseconds half up and out-of-range values become infinities, BC and
   * five-digit years as the driver writes them for one parameter: the server's own parse of {@code
   * LocalDateTime.toString()} rounds 2.5 µs to 2 (half to even) and refuses the rest.
   */
  @Test
  void dateTimesInAnArrayAreStoredAsOneParameterStoresThem() {
    List<LocalDateTime> times = Arrays.asList(LocalDateTime.of(2023, 5, 7, 13, 0),
        LocalDateTime.of(2024, 1, 2, 3, 4, 5, 2_500), LocalDateTime.of(2024, 12, 31, 23, 59, 59, 999_999_500),
        LocalDateTime.of(2024, 1, 2, 3, 4, 5, 3_499), LocalDateTime.MAX, LocalDateTime.MIN,
        LocalDateTime.of(-3, 1, 1, 0, 0), LocalDateTime.of(12000, 1, 1, 0, 0), null);
    assertThat(asArray(times, RowArrays::time))
        .containsExactlyElementsOf(oneByOne("timestamp", times, (p, t) -> p.time("x", t)))
        .contains("2024-01-02 03:04:05.000003", "infinity", "0004-01-01 00:00:00 BC");
  }

  @Test
  void datesInAnArrayAreStoredAsOneParameterStoresThem() {
    List<LocalDate> days = Arrays.asList(LocalDate.of(2023, 5, 7), LocalDate.of(-44, 3, 15), LocalDate.MAX,
        LocalDate.MIN, LocalDate.of(10000, 1, 1), null);
    assertThat(asArray(days, RowArrays::day))
        .containsExactlyElementsOf(oneByOne("date", days, (p, d) -> p.day("x", d)))
        .contains("0045-03-15 BC", "infinity");
  }

  /** A parameter bound one way for one row and another way for the next is a binder's bug, refused. */
  @Test
  void aParameterBoundAsTwoTypesIsRefused() {
    RowArrays rows = new RowArrays();
    rows.bind("x", "text");
    assertThatThrownBy(() -> rows.bind("x", true)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("parameter x bound as BOOL after TEXT");
  }

  private interface ArrayBinder<T> {
    void bind(RowArrays rows, String name, T value);
  }

  private <T> List<String> asArray(List<T> values, ArrayBinder<T> binder) {
    RowArrays rows = new RowArrays();
    values.forEach(v -> binder.bind(rows, "x", v));
    return db.read(h -> {
      Query q = h.createQuery("SELECT CAST(v.x AS text) FROM " + rows.unnest("v") + " ORDER BY v.ord");
      rows.bindTo(Params.of(q));
      return q.mapTo(String.class).list();
    });
  }

  private <T> List<String> oneByOne(String type, List<T> values, BiConsumer<Params, T> binder) {
    List<String> out = new ArrayList<>();
    for (T v : values) {
      out.add(db.read(h -> {
        Query q = h.createQuery("SELECT CAST(CAST(:x AS " + type + ") AS text)");
        binder.accept(Params.of(q), v);
        return q.mapTo(String.class).one();
      }));
    }
    return out;
  }
}
