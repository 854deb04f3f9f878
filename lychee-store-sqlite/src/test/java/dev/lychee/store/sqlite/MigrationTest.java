package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import dev.lychee.api.EvidenceNode;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.TurnRange;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.testing.StoreWrites;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MigrationTest {
  @TempDir
  Path dir;

  private static final SqliteStoreConfig CFG = SqliteStoreConfig.builder().synchronousFull(false).build();

  private static void fill(RecordStore s) {
    s.appendTurns("ns", "s", List.of(new RawTurn("ns", TurnRef.of("s", 0), Role.USER, "Ann", "I adopted a cat named Miso.", null)));
    StoreWrites.records(s, "ns", List.of(new MemoryRecord(null, "ns", dev.lychee.api.MemoryType.FACT, "Ann has a cat named Miso.",
        List.of("Ann", "Miso"), List.of("pet"), TemporalScope.NONE, List.of(TurnRef.of("s", 0)), "s", "s:0-0",
        SourceRole.USER, null)));
  }

  private static void assertFilled(RecordStore s) {
    assertThat(s.turns("ns", "s")).extracting(RawTurn::text).containsExactly("I adopted a cat named Miso.");
    assertThat(s.records("ns")).extracting(MemoryRecord::text).containsExactly("Ann has a cat named Miso.");
    assertThat(s.searchText("ns", TextField.TURNS, "miso", 3)).hasSize(1);
    assertThat(s.searchText("ns", TextField.RECORDS, "pet", 3)).hasSize(1);
  }

  private static List<Integer> versions(Path db) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        ResultSet rs = c.createStatement().executeQuery("SELECT version FROM schema_version ORDER BY version")) {
      List<Integer> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getInt(1));
      }
      return out;
    }
  }

  @Test
  void reopeningAnExistingDatabaseKeepsDataAndAppliesNothingTwice() throws Exception {
    Path db = dir.resolve("m.db");
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      fill(s);
    }
    assertThat(versions(db)).containsExactly(1, 2, 3, 4, 5);
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      assertFilled(s);
    }
    assertThat(versions(db)).containsExactly(1, 2, 3, 4, 5);
  }

  /**
   * A file as the first schema left it: filled by this release, then its later tables, index and
   * column dropped and their versions unrecorded (the rows the first schema had are written the
   * same way by every release).
   */
  private static void fillAsFirstSchema(Path db) throws Exception {
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      fill(s);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      for (String sql : List.of("DROP TABLE turn_deletions", "DROP TABLE record_changes",
          "DROP INDEX records_by_rev", "ALTER TABLE records DROP COLUMN rev", "DROP TABLE node_changes",
          "DROP INDEX nodes_by_rev", "ALTER TABLE nodes DROP COLUMN rev", "DROP INDEX segments_unencoded",
          "DELETE FROM schema_version WHERE version > 1")) {
        c.createStatement().execute(sql);
      }
    }
  }

  @Test
  void aDatabaseOfTheFirstSchemaGainsTurnDeletionAndRecordChangeCounts() throws Exception {
    Path db = dir.resolve("v1.db");
    fillAsFirstSchema(db);
    assertThat(versions(db)).containsExactly(1);
    try (SqliteRecordStore s = new SqliteRecordStore(SqliteDatabase.open(db, CFG))) {
      // the records written before the change counts are found, and a new one beside them
      assertFilled(s);
      StoreWrites.records(s, "ns", List.of(new MemoryRecord(null, "ns", dev.lychee.api.MemoryType.FACT,
          "Ann keeps a second pet, a parrot.", List.of("Ann"), List.of("pet"), TemporalScope.NONE,
          List.of(TurnRef.of("s", 0)), "s", "s:0-0", SourceRole.USER, null)));
      assertThat(s.searchText("ns", TextField.RECORDS, "pet", 3)).hasSize(2);
      s.forget("ns", "s");
      assertThat(s.countTurns("ns")).isZero();
      assertThat(s.searchText("ns", TextField.RECORDS, "pet", 3)).isEmpty();
    }
    assertThat(versions(db)).containsExactly(1, 2, 3, 4, 5);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        ResultSet rs = c.createStatement().executeQuery("SELECT t.deletions, r.writes, r.deletions"
            + " FROM turn_deletions t JOIN record_changes r ON r.namespace = t.namespace WHERE t.namespace = 'ns'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(1);
      assertThat(rs.getLong(2)).isEqualTo(1);
      assertThat(rs.getLong(3)).isEqualTo(1);
    }
  }

  @Test
  void aNewMigrationUpgradesWithoutLosingData() throws Exception {
    Path db = dir.resolve("up.db");
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      fill(s);
    }
    SchemaMigrations.Migration v6 = new SchemaMigrations.Migration(6, "turn notes", List.of(
        "ALTER TABLE turns ADD COLUMN note TEXT", "CREATE INDEX turns_by_note ON turns(note)"));
    SchemaMigrations next = new SchemaMigrations(List.of(SchemaMigrations.V1, SchemaMigrations.V2, SchemaMigrations.V3,
        SchemaMigrations.V4, SchemaMigrations.V5, v6));
    try (SqliteRecordStore s = new SqliteRecordStore(SqliteDatabase.open(db, CFG, next))) {
      assertFilled(s);
      fill(s); // idempotent: nothing doubles
      assertThat(s.countTurns("ns")).isEqualTo(1);
    }
    assertThat(versions(db)).containsExactly(1, 2, 3, 4, 5, 6);
    // this release does not know version 6: it refuses instead of guessing
    assertThatThrownBy(() -> SqliteRecordStore.open(db, CFG))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("newer");
  }

  @Test
  void aFailingMigrationLeavesThePreviousVersionIntact() throws Exception {
    Path db = dir.resolve("bad.db");
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      fill(s);
    }
    SchemaMigrations.Migration broken = new SchemaMigrations.Migration(6, "broken", List.of(
        "CREATE TABLE extra (x TEXT)", "THIS IS NOT SQL"));
    assertThatThrownBy(() -> SqliteDatabase.open(db, CFG, new SchemaMigrations(List.of(SchemaMigrations.V1,
        SchemaMigrations.V2, SchemaMigrations.V3, SchemaMigrations.V4, SchemaMigrations.V5, broken))))
        .isInstanceOf(RuntimeException.class);
    assertThat(versions(db)).containsExactly(1, 2, 3, 4, 5);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE name = 'extra'")) {
      rs.next();
      assertThat(rs.getInt(1)).isZero();
    }
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      assertFilled(s);
    }
  }

  private static final String ANN = EvidenceNode.idFor(NodeKind.ENTITY, "ann");
  private static final String MISO = EvidenceNode.idFor(NodeKind.ENTITY, "miso");

  private static EvidenceNode entity(String key, String recordId, String session) {
    return new EvidenceNode(null, "ns", NodeKind.ENTITY, key, key, key, List.of(recordId), List.of(session),
        List.of(key), List.of(), null, List.of(new TurnRange(session, 0, 0)));
  }

  private static MemoryRecord fact(String text, String session) {
    return new MemoryRecord(null, "ns", dev.lychee.api.MemoryType.FACT, text, List.of("Ann"), List.of("pet"),
        TemporalScope.NONE, List.of(TurnRef.of(session, 0)), session, session + ":0-0", SourceRole.USER, null);
  }

  /**
   * A file as the third schema (main before node change counts) left it, with two nodes of one
   * session: filled by this release, then the node write stamps and counts dropped and version 4
   * unrecorded (the third schema wrote node rows as this release does, without {@code rev}).
   */
  private static void fillAsThirdSchema(Path db) throws Exception {
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      fill(s);
      MemoryRecord r = fact("Ann has a cat named Miso.", "s");
      StoreWrites.encode(s, "ns", List.of(r), List.of(entity("ann", r.id(), "s"), entity("miso", r.id(), "s")));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      for (String sql : List.of("DROP TABLE node_changes", "DROP INDEX nodes_by_rev", "ALTER TABLE nodes DROP COLUMN rev",
          "DROP INDEX segments_unencoded", "DELETE FROM schema_version WHERE version > 3")) {
        c.createStatement().execute(sql);
      }
    }
  }

  @Test
  void aDatabaseOfTheThirdSchemaGainsNodeChangeCountsAndItsLinksAreReadFromMemory() throws Exception {
    Path db = dir.resolve("v3.db");
    fillAsThirdSchema(db);
    assertThat(versions(db)).containsExactly(1, 2, 3);
    try (SqliteRecordStore s = new SqliteRecordStore(SqliteDatabase.open(db, CFG));
        SqliteRecordStore other = new SqliteRecordStore(SqliteDatabase.open(db, CFG))) {
      String miso = s.records("ns").get(0).id();
      // the links written before the change counts are read (stamped 0: all of them on the first read)
      assertThat(s.nodeRecordIds("ns", List.of(MISO, ANN, "none"))).containsExactly(
          java.util.Map.entry(MISO, List.of(miso)), java.util.Map.entry(ANN, List.of(miso)));
      // another process merges into a node written before the migration: the links catch up
      MemoryRecord parrot = fact("Ann keeps a second pet, a parrot.", "t");
      other.appendTurns("ns", "t", List.of(new RawTurn("ns", TurnRef.of("t", 0), Role.USER, "Ann", "And a parrot.", null)));
      StoreWrites.encode(other, "ns", List.of(parrot), List.of(entity("ann", parrot.id(), "t")));
      assertThat(s.nodeRecordIds("ns", List.of(ANN)).get(ANN)).containsExactly(miso, parrot.id());
      // and forgetting the first session prunes the old rows
      other.forget("ns", "s");
      assertThat(s.nodeRecordIds("ns", List.of(MISO, ANN))).containsExactly(
          java.util.Map.entry(ANN, List.of(parrot.id())));
    }
    assertThat(versions(db)).containsExactly(1, 2, 3, 4, 5);
  }

  @Test
  void migrationListsMustBeContiguous() {
    SchemaMigrations.Migration v3 = new SchemaMigrations.Migration(3, "gap", List.of("SELECT 1"));
    assertThatThrownBy(() -> new SchemaMigrations(List.of(SchemaMigrations.V1, v3)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
