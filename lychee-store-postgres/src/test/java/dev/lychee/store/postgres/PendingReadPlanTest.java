package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Review C F8: the reads of pending work ({@code pendingSegments}, {@code pendingNamespaces}) that
 * the background sweep makes every period are answered from migration 2's partial indexes on the
 * segments not encoded yet, on a table of mostly ENCODED segments, instead of a scan of every
 * segment of every namespace; and they return exactly the pending rows.
 */
class PendingReadPlanTest {

  @Test
  void pendingReadsUseThePartialIndexesAndReturnOnlyPendingRows() {
    String url = TestPostgres.get().url();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2).build();
    try (PostgresRecordStore store = TestPostgres.rawStore(url, config)) {
      PostgresDatabase db = store.database();
      // 400 sessions of 100 one-turn segments in 4 namespaces, all ENCODED but the last two of
      // every 50th session
      db.write(h -> h.execute("INSERT INTO segments(namespace, id, session, first_idx, last_idx, state, exchanges,"
          + " tokens, reason, turns) SELECT 'ns' || (s % 4), 's' || s || ':' || k || '-' || k, 's' || s, k, k,"
          + " CASE WHEN s % 50 = 0 AND k >= 98 THEN 'PENDING' ELSE 'ENCODED' END, 1, 10, 'TARGET_LENGTH',"
          + " '[{\"i\":' || k || ',\"role\":\"user\",\"text\":\"turn\"}]'"
          + " FROM generate_series(1, 400) s, generate_series(0, 99) k ORDER BY k, s"));
      db.write(h -> h.execute("ANALYZE segments"));

      String one = db.read(h -> String.join("\n", h.createQuery("EXPLAIN " + SegmentTable.PENDING_QUERY)
          .bind("ns", "ns0").mapTo(String.class).list()));
      assertThat(one).as(one).contains("segments_unencoded").doesNotContain("Seq Scan");
      String all = db.read(h -> String.join("\n", h.createQuery("EXPLAIN " + SegmentTable.PENDING_NAMESPACES_QUERY)
          .mapTo(String.class).list()));
      assertThat(all).as(all).contains("segments_unencoded").doesNotContain("Seq Scan");

      // sessions 50, 100, ..., 400: namespaces ns2 (50, 150, 250, 350) and ns0 (100, 200, 300, 400)
      assertThat(store.pendingNamespaces()).containsExactlyInAnyOrder("ns0", "ns2");
      List<String> ids = store.pendingSegments("ns0").stream().map(s -> s.segment().id()).toList();
      assertThat(ids).containsExactly("s100:98-98", "s100:99-99", "s200:98-98", "s200:99-99", "s300:98-98",
          "s300:99-99", "s400:98-98", "s400:99-99");
      assertThat(store.pendingSegments("ns1")).isEmpty();
    }
  }
}
