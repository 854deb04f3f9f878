package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
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
