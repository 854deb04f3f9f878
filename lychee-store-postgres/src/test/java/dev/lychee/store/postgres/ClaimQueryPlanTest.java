package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.SegmentClaim;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Migration 2 on a populated schema of version 1, and the plan of {@code claimNext}'s query on a
 * table of mostly ENCODED segments: it reads the partial indexes instead of scanning the table.
 */
class ClaimQueryPlanTest {

  @Test
  void claimNextReadsThePartialIndexesAfterMigrationTwo() {
    String url = TestPostgres.get().url();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2).build();
    PostgresDatabase v1 = PostgresDatabase.open(url, config, new SchemaMigrations(List.of(SchemaMigrations.V1)));
    v1.acquire();
    // 400 sessions of 100 one-turn segments in 4 namespaces, all ENCODED but the last two of every
    // 50th session
    v1.write(h -> h.execute("INSERT INTO segments(namespace, id, session, first_idx, last_idx, state, exchanges,"
        + " tokens, reason, turns) SELECT 'ns' || (s % 4), 's' || s || ':' || k || '-' || k, 's' || s, k, k,"
        + " CASE WHEN s % 50 = 0 AND k >= 98 THEN 'PENDING' ELSE 'ENCODED' END, 1, 10, 'TARGET_LENGTH',"
        + " '[{\"i\":' || k || ',\"role\":\"user\",\"text\":\"turn\"}]'"
        + " FROM generate_series(1, 400) s, generate_series(0, 99) k ORDER BY k, s"));
    v1.release();

    try (PostgresRecordStore store = TestPostgres.rawStore(url, config)) {
      PostgresDatabase db = store.database();
      List<String> indexes = db.read(h -> h.createQuery("SELECT indexname FROM pg_indexes WHERE schemaname = :s"
          + " AND tablename = 'segments' ORDER BY indexname").bind("s", config.schema()).mapTo(String.class).list());
      assertThat(indexes).contains("segments_unencoded", "segments_unencoded_by_session", "segments_claimed")
          .doesNotContain("segments_pending");
      db.write(h -> h.execute("ANALYZE segments"));

      String plan = db.read(h -> String.join("\n", h.createQuery("EXPLAIN " + PostgresSegmentClaims.claimNextQuery(true))
          .bind("ns", "ns0").mapTo(String.class).list()));
      assertThat(plan).as(plan).contains("segments_unencoded").doesNotContain("Seq Scan");
      String anyNamespace = db.read(h -> String.join("\n",
          h.createQuery("EXPLAIN " + PostgresSegmentClaims.claimNextQuery(false)).mapTo(String.class).list()));
      assertThat(anyNamespace).as(anyNamespace).contains("segments_unencoded").doesNotContain("Seq Scan");

      // and it still finds the head: the oldest PENDING segment of a session with nothing before it
      Optional<SegmentClaim> c = new PostgresSegmentClaims(db).claimNext("ns0", "me", Duration.ofMinutes(1));
      assertThat(c).map(SegmentClaim::segmentId).contains("s100:98-98");
    }
  }
}
