package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.CheckedRecordStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqliteStoreModuleTest {
  @TempDir
  Path dir;

  @Test
  void bindsSingletonStoreAndIndexOverOneFile() {
    Path db = dir.resolve("memory.db");
    Injector injector = Guice.createInjector(new SqliteStoreModule(db));
    RecordStore store = injector.getInstance(RecordStore.class);
    VectorIndex vectors = injector.getInstance(VectorIndex.class);
    assertThat(store).isInstanceOf(CheckedRecordStore.class).isSameAs(injector.getInstance(RecordStore.class));
    assertThat(((CheckedRecordStore) store).storage()).isInstanceOf(SqliteRecordStore.class);
    assertThat(vectors).isInstanceOf(SqliteVectorIndex.class).isSameAs(injector.getInstance(VectorIndex.class));
    SqliteDatabase database = injector.getInstance(SqliteDatabase.class);
    assertThat(database.file()).isEqualTo(db.toAbsolutePath());

    RawTurn t = new RawTurn("ns", TurnRef.of("s", 0), Role.USER, null, "hello", null);
    store.appendTurns("ns", "s", List.of(t));
    vectors.upsert("ns", VectorIndex.TURNS, Map.of(t.id(), new float[] {1, 0}));
    store.close();
    // the index still works while it holds the shared database
    assertThat(vectors.size("ns", VectorIndex.TURNS)).isEqualTo(1);
    vectors.close();
    assertThatThrownBy(database::acquire).isInstanceOf(IllegalStateException.class);

    Injector again = Guice.createInjector(new SqliteStoreModule(db, SqliteStoreConfig.defaults()));
    RecordStore reopened = again.getInstance(RecordStore.class);
    VectorIndex reopenedVectors = again.getInstance(VectorIndex.class);
    assertThat(reopened.turns("ns", "s")).containsExactly(t);
    assertThat(reopenedVectors.search("ns", VectorIndex.TURNS, new float[] {1, 0}, 1, null))
        .extracting(ScoredId::id).containsExactly(t.id());
    reopened.close();
    reopenedVectors.close();
  }

  @Test
  void configurationIsValidatedOnce() {
    assertThatThrownBy(() -> SqliteStoreConfig.builder().hnswM(1).build()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SqliteStoreConfig.builder().vectorCacheMaxBytes(0).build()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SqliteStoreConfig.builder().busyTimeoutMillis(-1).build()).isInstanceOf(IllegalArgumentException.class);
    SqliteStoreConfig d = SqliteStoreConfig.defaults();
    assertThat(d.exactSearchMaxVectors()).isEqualTo(20_000);
    assertThat(d.toBuilder().build()).isEqualTo(d);
    assertThat(d.hnswDirectoryFor(Path.of("/data/memory.db"))).isEqualTo(Path.of("/data/memory.db.hnsw"));
  }

  @Test
  void aNewDatabaseAndItsDirectoriesArePrivateToTheirOwner() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
    Path db = dir.resolve("home").resolve("memory.db");
    Injector injector = Guice.createInjector(new SqliteStoreModule(db));
    RecordStore store = injector.getInstance(RecordStore.class);
    VectorIndex vectors = injector.getInstance(VectorIndex.class);
    try {
      store.appendTurns("ns", "s", List.of(new RawTurn("ns", TurnRef.of("s", 0), Role.USER, null, "my bank is Acme", null)));
      assertThat(mode(dir.resolve("home"))).isEqualTo("rwx------");
      assertThat(mode(db)).isEqualTo("rw-------");
      // SQLite creates its write-ahead log with the database file's mode
      Path wal = db.resolveSibling("memory.db-wal");
      if (java.nio.file.Files.exists(wal)) {
        assertThat(mode(wal)).isEqualTo("rw-------");
      }
    } finally {
      store.close();
      vectors.close();
    }
  }

  private static String mode(Path p) throws java.io.IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(p));
  }
}
