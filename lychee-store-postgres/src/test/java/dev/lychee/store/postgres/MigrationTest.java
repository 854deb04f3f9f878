package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import dev.lychee.api.TurnRange;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.testing.StoreWrites;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Versioned migrations: applied once, re-opening is a no-op, a newer schema is refused. */
class MigrationTest {
  @Test
  void migratesOnceAndRefusesANewerSchema() throws Exception {
    String url = TestPostgres.get().url();
    String schema = TestPostgres.freshSchema();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).build();
    PostgresRecordStore.open(TestPostgres.get().url(), config).close();
    PostgresRecordStore.open(TestPostgres.get().url(), config).close();
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT COUNT(*), MAX(version) FROM " + schema + ".schema_version")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(SchemaMigrations.standard().latestVersion());
        assertThat(rs.getInt(2)).isEqualTo(SchemaMigrations.standard().latestVersion());
      }
      st.execute("INSERT INTO " + schema + ".schema_version(version, description) VALUES (99, 'from the future')");
    }
    assertThatThrownBy(() -> PostgresRecordStore.open(url, config))
        .isInstanceOf(PostgresStoreException.class)
        .hasMessageContaining("version 99").hasMessageContaining("newer than this Lychee supports");
  }

  /**
   * Migration 7 on a schema the previous release made (migrations 1 to 6, a node with a long list of
   * record ids stored): the node reads back the same, and the list a merge rewrites is stored
   * without compression ({@code STORAGE EXTERNAL}, round twenty-three), so the server no longer
   * tries to compress it at every rewrite. The test's ids repeat a pattern, which pglz would
   * compress; the store's own hexadecimal ids it never does.
   */
  @Test
  void migrationSevenStoresANodesRecordIdsWithoutCompressionAndKeepsWhatWasStored() throws Exception {
    String url = TestPostgres.get().url();
    String schema = TestPostgres.freshSchema();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).build();
    SchemaMigrations previous = new SchemaMigrations(List.of(SchemaMigrations.V1, SchemaMigrations.V2,
        SchemaMigrations.V3, SchemaMigrations.V4, SchemaMigrations.V5, SchemaMigrations.V6));
    List<String> first = ids(0, 800);
    EvidenceNode stored = speaker(first);
    try (RecordStore old = CheckedRecordStore.of(new PostgresRecordStore(PostgresDatabase.open(url, config, previous)))) {
      StoreWrites.nodes(old, "ns", List.of(stored));
    }
    assertThat(storage(schema)).isEqualTo("x");
    long[] before = recordIdsSizes(schema);
    assertThat(before[0]).as("main's schema compresses a repetitive list").isLessThan(before[1] / 2);

    try (RecordStore store = PostgresRecordStore.open(url, config)) {
      assertThat(store.nodes("ns", NodeKind.ENTITY)).containsExactly(stored);
      StoreWrites.nodes(store, "ns", List.of(speaker(ids(800, 1600))));
      List<String> all = new ArrayList<>(first);
      all.addAll(ids(800, 1600));
      assertThat(store.nodes("ns", NodeKind.ENTITY)).singleElement().extracting(EvidenceNode::recordIds).isEqualTo(all);
    }
    assertThat(storage(schema)).isEqualTo("e");
    long[] after = recordIdsSizes(schema);
    assertThat(after[0]).as("stored bytes of the rewritten list, uncompressed").isGreaterThanOrEqualTo(after[1]);
  }

  private static List<String> ids(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> String.format("record-%06d", i)).toList();
  }

  private static EvidenceNode speaker(List<String> recordIds) {
    return new EvidenceNode(null, "ns", NodeKind.ENTITY, "amy", "Amy", "amy", recordIds, List.of("s1"), List.of("amy"),
        List.of(), null, List.of(new TurnRange("s1", 0, 3)));
  }

  /** {@code attstorage} of {@code nodes.record_ids}: x (EXTENDED, compressed when it pays) or e (EXTERNAL). */
  private static String storage(String schema) throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT attstorage FROM pg_attribute WHERE attrelid = '" + schema
            + ".nodes'::regclass AND attname = 'record_ids'")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** The stored size of the one node's {@code record_ids} and its length in bytes. */
  private static long[] recordIdsSizes(String schema) throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_column_size(record_ids), octet_length(record_ids) FROM " + schema
            + ".nodes")) {
      rs.next();
      long[] sizes = {rs.getLong(1), rs.getLong(2)};
      assertThat(rs.next()).isFalse();
      return sizes;
    }
  }

  @Test
  void aFailedMigrationLeavesThePreviousVersion() throws Exception {
    String url = TestPostgres.get().url();
    String schema = TestPostgres.freshSchema();
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(schema).maxPoolSize(2).build();
    SchemaMigrations broken = new SchemaMigrations(List.of(SchemaMigrations.V1,
        new SchemaMigrations.Migration(2, "broken", List.of("CREATE TABLE extra (x integer)", "SELECT no_such_function()"))));
    assertThatThrownBy(() -> PostgresDatabase.open(url, config, broken))
        .hasMessageContaining("no_such_function");
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT MAX(version), to_regclass('" + schema + ".extra') IS NULL FROM "
            + schema + ".schema_version")) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(1);
      assertThat(rs.getBoolean(2)).as("the half-applied step was rolled back").isTrue();
    }
  }

  @Test
  void badUrlsAndConfigsGetClearErrorsWithoutSecrets() {
    assertThatThrownBy(() -> PostgresRecordStore.open("jdbc:mysql://h/db?password=hunter2", PostgresStoreConfig.defaults()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:postgresql:")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> PostgresStoreConfig.builder().schema("Bad-Name").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema");
    assertThatThrownBy(() -> PostgresStoreConfig.builder().maxPoolSize(0).build())
        .hasMessageContaining("maxPoolSize");
    assertThat(PostgresDatabase.describeUrl("jdbc:postgresql://bob:hunter2@db.example:5433/mem?password=hunter2"))
        .isEqualTo("postgresql://db.example:5433/mem");
    // an unreachable server: a clear error naming the server, after the (short) retry window
    PostgresStoreConfig quick = PostgresStoreConfig.builder().retryFor(java.time.Duration.ofMillis(300))
        .connectTimeout(java.time.Duration.ofMillis(300)).build();
    assertThatThrownBy(() -> PostgresRecordStore.open("jdbc:postgresql://127.0.0.1:1/x?password=hunter2", quick))
        .isInstanceOf(PostgresStoreException.class).hasMessageContaining("postgresql://127.0.0.1:1/x")
        .hasMessageNotContaining("hunter2");
  }
}
