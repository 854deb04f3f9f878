package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SegmentState;
import dev.lychee.api.TurnRef;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review C F8: the reads of pending work that the background sweep makes every period go through
 * schema V5's partial index on the segments not encoded yet (a search of it, no scan of the table,
 * no sort), and return exactly the pending rows.
 */
class PendingReadPlanTest {
  @TempDir Path dir;

  @Test
  void pendingReadsUseThePartialIndexAndReturnOnlyPendingRows() throws Exception {
    Path db = dir.resolve("plan.db");
    try (dev.lychee.api.spi.RecordStore store = SqliteRecordStore.open(db, SqliteStoreConfig.builder().synchronousFull(false).build())) {
      for (int n = 0; n < 3; n++) {
        String ns = "ns" + n;
        for (int s = 0; s < 20; s++) {
          List<RawTurn> turns = new ArrayList<>();
          for (int i = 0; i < 10; i++) {
            turns.add(new RawTurn(ns, TurnRef.of("s" + s, i), Role.USER, "Ann", "turn " + i, null));
          }
          store.appendTurns(ns, "s" + s, turns);
          for (int i = 0; i < 10; i++) {
            Segment seg = new Segment(ns, "s" + s, turns.subList(i, i + 1), 1, 3, CloseReason.TARGET_LENGTH,
                Double.NaN, Double.NaN);
            // all encoded but the last segment of every fifth session of ns1
            boolean pending = n == 1 && s % 5 == 0 && i == 9;
            store.putSegment(seg, pending ? SegmentState.PENDING : SegmentState.ENCODED);
          }
        }
      }
      assertThat(store.pendingNamespaces()).containsExactly("ns1");
      assertThat(store.pendingSegments("ns1")).extracting(x -> x.segment().id())
          .containsExactly("s0:9-9", "s10:9-9", "s15:9-9", "s5:9-9");
      assertThat(store.pendingSegments("ns0")).isEmpty();
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      String one = plan(c, SegmentTable.PENDING_QUERY, "ns1");
      assertThat(one).as(one).contains("segments_unencoded").doesNotContain("SCAN segments\n")
          .doesNotContain("TEMP B-TREE");
      String all = plan(c, SegmentTable.PENDING_NAMESPACES_QUERY, null);
      assertThat(all).as(all).contains("segments_unencoded");
    }
  }

  private static String plan(Connection c, String sql, String ns) throws Exception {
    try (PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
      if (ns != null) {
        ps.setString(1, ns);
      }
      StringBuilder out = new StringBuilder();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.append(rs.getString("detail")).append('\n');
        }
      }
      return out.toString();
    }
  }
}
