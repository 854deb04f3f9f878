package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import dev.lychee.api.MemoryRecord;
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
    assertThat(versions(db)).containsExactly(1, 2, 3);
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      assertFilled(s);
    }
    assertThat(versions(db)).containsExactly(1, 2, 3);
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
          "DROP INDEX records_by_rev", "ALTER TABLE records DROP COLUMN rev",
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
    assertThat(versions(db)).containsExactly(1, 2, 3);
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
    SchemaMigrations.Migration v4 = new SchemaMigrations.Migration(4, "turn notes", List.of(
        "ALTER TABLE turns ADD COLUMN note TEXT", "CREATE INDEX turns_by_note ON turns(note)"));
    SchemaMigrations next = new SchemaMigrations(
        List.of(SchemaMigrations.V1, SchemaMigrations.V2, SchemaMigrations.V3, v4));
    try (SqliteRecordStore s = new SqliteRecordStore(SqliteDatabase.open(db, CFG, next))) {
      assertFilled(s);
      fill(s); // idempotent: nothing doubles
      assertThat(s.countTurns("ns")).isEqualTo(1);
    }
    assertThat(versions(db)).containsExactly(1, 2, 3, 4);
    // this release does not know version 4: it refuses instead of guessing
    assertThatThrownBy(() -> SqliteRecordStore.open(db, CFG))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("newer");
  }

  @Test
  void aFailingMigrationLeavesThePreviousVersionIntact() throws Exception {
    Path db = dir.resolve("bad.db");
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      fill(s);
    }
    SchemaMigrations.Migration broken = new SchemaMigrations.Migration(4, "broken", List.of(
        "CREATE TABLE extra (x TEXT)", "THIS IS NOT SQL"));
    assertThatThrownBy(() -> SqliteDatabase.open(db, CFG,
        new SchemaMigrations(List.of(SchemaMigrations.V1, SchemaMigrations.V2, SchemaMigrations.V3, broken))))
        .isInstanceOf(RuntimeException.class);
    assertThat(versions(db)).containsExactly(1, 2, 3);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE name = 'extra'")) {
      rs.next();
      assertThat(rs.getInt(1)).isZero();
    }
    try (RecordStore s = SqliteRecordStore.open(db, CFG)) {
      assertFilled(s);
    }
  }

  @Test
  void migrationListsMustBeContiguous() {
    SchemaMigrations.Migration v3 = new SchemaMigrations.Migration(3, "gap", List.of("SELECT 1"));
    assertThatThrownBy(() -> new SchemaMigrations(List.of(SchemaMigrations.V1, v3)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
