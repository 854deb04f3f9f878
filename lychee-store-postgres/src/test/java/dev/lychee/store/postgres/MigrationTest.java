package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lychee.api.EvidenceNode;
import dev.lychee.api.NodeKind;
import dev.lychee.api.TurnRange;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.store.JsonColumns;
import dev.lychee.core.testing.StoreWrites;

import java.sql.Connection;
import java.sql.PreparedStatement;
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
    List<String> first = ids(0, 800);
    EvidenceNode stored = speaker(first);
    PostgresStoreConfig config = storedByTheReleaseBefore(7, stored);
    String schema = config.schema();
    assertThat(storage(schema, "record_ids")).isEqualTo("x");
    long[] before = recordIdsSizes(schema, "record_ids");
    assertThat(before[0]).as("main's schema compresses a repetitive list").isLessThan(before[1] / 2);

    try (RecordStore store = PostgresRecordStore.open(url, config)) {
      assertThat(store.nodes("ns", NodeKind.ENTITY)).containsExactly(stored);
      StoreWrites.nodes(store, "ns", List.of(speaker(ids(800, 1600))));
      List<String> all = new ArrayList<>(first);
      all.addAll(ids(800, 1600));
      assertThat(store.nodes("ns", NodeKind.ENTITY)).singleElement().extracting(EvidenceNode::recordIds).isEqualTo(all);
    }
    // migration 8 renamed the column; the merge's 800 ids passed the tail's bound, so the whole list was stored again
    assertThat(storage(schema, "record_ids_base")).isEqualTo("e");
    long[] after = recordIdsSizes(schema, "record_ids_base");
    assertThat(after[0]).as("stored bytes of the rewritten list, uncompressed").isGreaterThanOrEqualTo(after[1]);
  }

  /**
   * A fresh schema made by the migrations before {@code migration} (the release before it), with
   * the node stored as that release stored it: before migration 8 in one column {@code record_ids},
   * from it on as the base {@code record_ids_base} with an empty tail (this release's code writes
   * the columns of its last migration); the schema's config.
   */
  private static PostgresStoreConfig storedByTheReleaseBefore(int migration, EvidenceNode n) throws Exception {
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2).build();
    SchemaMigrations previous = new SchemaMigrations(List.of(SchemaMigrations.V1, SchemaMigrations.V2,
        SchemaMigrations.V3, SchemaMigrations.V4, SchemaMigrations.V5, SchemaMigrations.V6, SchemaMigrations.V7,
        SchemaMigrations.V8).subList(0, migration - 1));
    new PostgresRecordStore(PostgresDatabase.open(TestPostgres.get().url(), config, previous)).close();
    String recordIds = migration > 8 ? "record_ids_base" : "record_ids";
    try (Connection c = TestPostgres.get().connect(); PreparedStatement st = c.prepareStatement("INSERT INTO "
        + config.schema() + ".nodes(namespace, id, kind, key, label, search_text, " + recordIds + ", sessions,"
        + " entities, tags, has_span, turn_ranges) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false, ?)")) {
      String[] values = {n.namespace(), n.id(), n.kind().name(), n.key(), n.label(), n.searchText(),
          JsonColumns.strings(n.recordIds()), JsonColumns.strings(n.sessions()), JsonColumns.strings(n.entities()),
          JsonColumns.strings(n.tags()), JsonColumns.turnRanges(n.turnRanges())};
      for (int i = 0; i < values.length; i++) {
        st.setString(i + 1, values[i]);
      }
      assertThat(st.executeUpdate()).isEqualTo(1);
    }
    return config;
  }

  private static List<String> ids(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> String.format("record-%06d", i)).toList();
  }

  private static EvidenceNode speaker(List<String> recordIds) {
    return new EvidenceNode(null, "ns", NodeKind.ENTITY, "amy", "Amy", "amy", recordIds, List.of("s1"), List.of("amy"),
        List.of(), null, List.of(new TurnRange("s1", 0, 3)));
  }

  /** {@code attstorage} of a column of {@code nodes}: x (EXTENDED, compressed when it pays) or e (EXTERNAL). */
  private static String storage(String schema, String column) throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT attstorage FROM pg_attribute WHERE attrelid = '" + schema
            + ".nodes'::regclass AND attname = '" + column + "'")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** The stored size of the one node's list column and its length in bytes. */
  private static long[] recordIdsSizes(String schema, String column) throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_column_size(" + column + "), octet_length(" + column + ") FROM "
            + schema + ".nodes")) {
      rs.next();
      long[] sizes = {rs.getLong(1), rs.getLong(2)};
      assertThat(rs.next()).isFalse();
      return sizes;
    }
  }

  /**
   * Migration 8 on a schema the previous release made (migrations 1 to 7, a node with a list of 600
   * ids of 64 hexadecimal digits, 40 KB, stored): the node reads back the same, and a merge keeps
   * the stored list where it lies (the same TOAST value) and writes only the ids it appends, in the
   * tail, until the tail would pass {@link NodeTable#TAIL_CHARS}; then the whole list is the new
   * base and the tail is empty. At every step the list reads back whole and in order, from this
   * instance's copy, from the database by id, and from a second instance. On the previous release
   * every merge stored the whole list again (a new TOAST value each time; round twenty-four).
   */
  @Test
  void migrationEightKeepsANodesStoredListAndWritesOnlyWhatAMergeAppends() throws Exception {
    String url = TestPostgres.get().url();
    List<String> all = new ArrayList<>(hexIds(0, 600));
    EvidenceNode stored = speaker(all);
    PostgresStoreConfig config = storedByTheReleaseBefore(8, stored);
    String schema = config.schema();
    try (RecordStore store = PostgresRecordStore.open(url, config)) {
      assertThat(store.nodes("ns", NodeKind.ENTITY)).containsExactly(stored);
      long base = baseChunk(schema);
      int kept = 0;
      int rebased = 0;
      int tailStart = 600;
      long keptWal = 0;
      for (int from = 600; from < 700; from += 10) {
        List<String> appended = hexIds(from, from + 10);
        long walBefore = walPosition();
        StoreWrites.nodes(store, "ns", List.of(speaker(appended)));
        long wal = walPosition() - walBefore;
        all.addAll(appended);
        String tail = tail(schema);
        if (baseChunk(schema) == base) {
          kept++;
          keptWal += wal;
          // the tail holds the ids after the kept base, and no more than the bound
          assertThat(tail).startsWith("[\"" + all.get(tailStart) + "\",").endsWith(appended.get(9) + "\"]");
          assertThat(tail.length()).isLessThanOrEqualTo(NodeTable.TAIL_CHARS + 1);
        } else {
          rebased++;
          assertThat(tail).isEqualTo("[]");
          base = baseChunk(schema);
          tailStart = all.size();
        }
        assertThat(store.nodes("ns", NodeKind.ENTITY)).singleElement().extracting(EvidenceNode::recordIds).isEqualTo(all);
        String id = stored.id();
        assertThat(store.nodes("ns", List.of(id))).singleElement().extracting(EvidenceNode::recordIds).isEqualTo(all);
        assertThat(store.nodeRecordIds("ns", List.of(id))).containsEntry(id, all);
      }
      assertThat(kept).as("merges that kept the stored list").isGreaterThanOrEqualTo(8);
      // a whole list of 600 ids is 40 KB, which every merge wrote to the WAL before; with a
      // checkpoint's full-page images in one of them, half of it is still a wide bound
      assertThat(keptWal).as("WAL bytes of the merges that kept the stored list")
          .isLessThan(kept * (long) JsonColumns.strings(hexIds(0, 600)).length() / 2);
      assertThat(rebased).as("merges that stored the whole list again").isEqualTo(1);
    }
    try (RecordStore other = PostgresRecordStore.open(url, config)) {
      assertThat(other.nodes("ns", NodeKind.ENTITY)).singleElement().extracting(EvidenceNode::recordIds).isEqualTo(all);
    }
  }

  /**
   * Migration 9 on a schema the previous release made (migrations 1 to 8, a node with an
   * 8,000-character search text and long tags and turn ranges stored, compressed with pglz): the
   * node reads back the same, the columns now compress with LZ4 (round twenty-five), the stored
   * values keep pglz until a merge rewrites them, and the rewritten values, LZ4 now, read back whole
   * from this instance's copy, from the database by id and from a second instance. The test's
   * server (PostgreSQL 15 as packaged) is built with LZ4; on one without it the migration changes
   * nothing, which this test does not cover.
   */
  @Test
  void migrationNineCompressesANodesTextWithLz4AndReadsWhatPglzStored() throws Exception {
    String url = TestPostgres.get().url();
    EvidenceNode stored = wordy(0);
    PostgresStoreConfig config = storedByTheReleaseBefore(9, stored);
    String schema = config.schema();
    for (String column : LZ4_COLUMNS) {
      assertThat(compression(schema, column)).as(column).isEqualTo("default");
    }
    assertThat(storedCompression(schema, "search_text")).isEqualTo("pglz");
    try (RecordStore store = PostgresRecordStore.open(url, config)) {
      for (String column : LZ4_COLUMNS) {
        assertThat(compression(schema, column)).as(column).isEqualTo("lz4");
      }
      assertThat(store.nodes("ns", NodeKind.ENTITY)).containsExactly(stored);
      // a merge appends a text of its own: the stored text is cut to its last 8,000 characters
      StoreWrites.nodes(store, "ns", List.of(wordy(1)));
      EvidenceNode merged = stored.mergedWith(wordy(1));
      assertThat(merged.searchText()).hasSize(EvidenceNode.MAX_SEARCH_TEXT_CHARS).isNotEqualTo(stored.searchText());
      // the largest column is compressed first; the others only while the row is still too long
      assertThat(storedCompression(schema, "search_text")).isEqualTo("lz4");
      for (String column : LZ4_COLUMNS) {
        assertThat(storedCompression(schema, column)).as(column).isNotEqualTo("pglz");
      }
      assertThat(store.nodes("ns", NodeKind.ENTITY)).containsExactly(merged);
      assertThat(store.nodes("ns", List.of(stored.id()))).containsExactly(merged);
      try (RecordStore other = PostgresRecordStore.open(url, config)) {
        assertThat(other.nodes("ns", NodeKind.ENTITY)).containsExactly(merged);
      }
    }
  }

  /** The columns migration 9 compresses with LZ4. */
  private static final List<String> LZ4_COLUMNS = List.of("search_text", "sessions", "entities", "tags", "turn_ranges");

  /**
   * A speaker's node as one segment of a long conversation merges it: an 8,000-character search
   * text, its largest column, with 40 tags and 30 turn ranges, each different for each {@code part}.
   */
  private static EvidenceNode wordy(int part) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; text.length() < EvidenceNode.MAX_SEARCH_TEXT_CHARS; i++) {
      text.append("Entity: Amy\nTags: fact, plan\nRecord: part ").append(part).append(", line ").append(i)
          .append(" says Amy went hiking again.\n");
    }
    List<String> tags = IntStream.range(0, 40).mapToObj(i -> "tag-" + part + "-" + i).toList();
    List<TurnRange> ranges = IntStream.range(0, 30).mapToObj(i -> new TurnRange("s" + part, i, i + 2)).toList();
    return new EvidenceNode(null, "ns", NodeKind.ENTITY, "amy", "Amy",
        text.substring(0, EvidenceNode.MAX_SEARCH_TEXT_CHARS), List.of("record-" + part), List.of("s" + part),
        List.of("amy"), tags, null, ranges);
  }

  /** How a column of {@code nodes} compresses new values: default (the server's, pglz here), pglz or lz4. */
  private static String compression(String schema, String column) throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT CASE attcompression WHEN 'l' THEN 'lz4' WHEN 'p' THEN 'pglz'"
            + " ELSE 'default' END FROM pg_attribute WHERE attrelid = '" + schema
            + ".nodes'::regclass AND attname = '" + column + "'")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /** How the one node's stored value of {@code column} is compressed: pglz, lz4, or null (not at all). */
  private static String storedCompression(String schema, String column) throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_column_compression(" + column + ") FROM " + schema + ".nodes")) {
      rs.next();
      String method = rs.getString(1);
      assertThat(rs.next()).isFalse();
      return method;
    }
  }

  private static List<String> hexIds(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> String.format("%064x", i)).toList();
  }

  /**
   * The TOAST value id of the one node's stored base list: the largest value in the table's TOAST
   * relation (the base is 40 KB and more, a tail at most {@link NodeTable#TAIL_CHARS}); a value
   * written again gets a new id.
   */
  private static long baseChunk(String schema) throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement()) {
      String toast;
      try (ResultSet rs = st.executeQuery("SELECT CAST(reltoastrelid AS regclass) FROM pg_class WHERE oid = '"
          + schema + ".nodes'::regclass")) {
        rs.next();
        toast = rs.getString(1);
      }
      try (ResultSet rs = st.executeQuery("SELECT chunk_id FROM " + toast
          + " GROUP BY chunk_id ORDER BY sum(octet_length(chunk_data)) DESC LIMIT 1")) {
        assertThat(rs.next()).as("the base lies out of line").isTrue();
        return rs.getLong(1);
      }
    }
  }

  /** Where the server's WAL insertion stands, in bytes. */
  private static long walPosition() throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static String tail(String schema) throws Exception {
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT record_ids_tail FROM " + schema + ".nodes")) {
      rs.next();
      return rs.getString(1);
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

  /**
   * libpq's user-info ({@code user:password@host}): the driver does not read it, so without a port
   * HikariCP refused the URL with the password in its message, and with a port every retry's
   * "unknown host" named {@code bob:hunter2@...}. Now it is split off before HikariCP sees it.
   */
  @Test
  void aPasswordInTheUserInfoNeverReachesAMessage() {
    PostgresStoreConfig quick = PostgresStoreConfig.builder().retryFor(java.time.Duration.ofMillis(300))
        .connectTimeout(java.time.Duration.ofMillis(300)).build();
    // without a port: HikariCP's "claims to not accept jdbcUrl" before the split
    assertThatThrownBy(() -> PostgresRecordStore.open("jdbc:postgresql://bob:hunter2@db.example/mem", quick))
        .isInstanceOf(PostgresStoreException.class).hasMessageContaining("postgresql://db.example/mem")
        .hasMessageNotContaining("hunter2").hasMessageNotContaining("bob");
    // with a port: the driver took "bob:hunter2@127.0.0.1" for the host
    assertThatThrownBy(() -> PostgresRecordStore.open("jdbc:postgresql://bob:hunter2@127.0.0.1:1/x", quick))
        .isInstanceOf(PostgresStoreException.class).hasMessageContaining("postgresql://127.0.0.1:1/x")
        .hasMessageNotContaining("hunter2");
    // a '/' or '@' left unencoded in the password stays in the user-info
    assertThatThrownBy(() -> PostgresRecordStore.open("jdbc:postgresql://bob:pw/hunter3@x@127.0.0.1:1/x", quick))
        .isInstanceOf(PostgresStoreException.class).hasMessageContaining("postgresql://127.0.0.1:1/x")
        .hasMessageNotContaining("hunter3");
    assertThat(PostgresDatabase.describeUrl("jdbc:postgresql://bob:pw/hunter3@x@db.example:5433/mem?x=1"))
        .isEqualTo("postgresql://db.example:5433/mem");
    assertThatThrownBy(() -> PostgresRecordStore.open("jdbc:postgresql://bob:hunter2@db.example/mem?password=x", quick))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice").hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> PostgresRecordStore.open("jdbc:postgresql://bob:hunter2%@db.example/mem", quick))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("%25").hasMessageNotContaining("hunter2");
    assertThat(PostgresUrl.parse("jdbc:postgresql://bob:hunter2@db.example/mem")).hasToString("PostgresUrl[postgresql://db.example/mem]");
    // an '@' in the parameters is no user-info; several hosts keep their list
    assertThat(PostgresUrl.parse("jdbc:postgresql://db.example:5/mem?password=a@b"))
        .isEqualTo(new PostgresUrl("jdbc:postgresql://db.example:5/mem?password=a@b", null, null));
    assertThat(PostgresUrl.parse("jdbc:postgresql://bob@h1:5,h2:6/mem"))
        .isEqualTo(new PostgresUrl("jdbc:postgresql://h1:5,h2:6/mem", "bob", null));
  }

  /** The user-info reaches the server: user and percent-decoded password go to the driver's properties. */
  @Test
  void aUserAndPasswordInTheUserInfoAreUsed() throws Exception {
    String url = TestPostgres.get().url();
    assumeTrue(TestPostgres.get().owned(), "the tests' own server (a known URL shape, roles may be created)");
    try (Connection c = TestPostgres.get().connect(); Statement st = c.createStatement()) {
      st.execute("CREATE ROLE lychee_userinfo LOGIN SUPERUSER PASSWORD 'p@ss:w/rd'");
    }
    PostgresUrl split = PostgresUrl.parse("jdbc:postgresql://lychee_userinfo:p%40ss:w%2Frd@127.0.0.1:5/db?ssl=false");
    assertThat(split.user()).isEqualTo("lychee_userinfo");
    assertThat(split.password()).isEqualTo("p@ss:w/rd");
    assertThat(split.driverUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5/db?ssl=false");
    String withUserInfo = url.replace("?user=postgres", "").replace("jdbc:postgresql://",
        "jdbc:postgresql://lychee_userinfo:p%40ss:w%2Frd@");
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(1).build();
    PostgresDatabase db = PostgresDatabase.open(withUserInfo, config);
    db.acquire();
    try {
      String user = db.read(h -> h.createQuery("SELECT current_user").mapTo(String.class).one());
      assertThat(user).isEqualTo("lychee_userinfo");
    } finally {
      db.release();
    }
  }
}
