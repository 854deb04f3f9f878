package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.lychee.api.RawTurn;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.store.CheckedRecordStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuceneStoreModuleTest {
  @TempDir Path dir;

  @Test
  void bindsBothSpisAsSingletonsInSubdirectories() {
    Injector injector = Guice.createInjector(new LuceneStoreModule(dir));
    RecordStore store = injector.getInstance(RecordStore.class);
    VectorIndex vectors = injector.getInstance(VectorIndex.class);
    try {
      assertThat(store).isInstanceOf(CheckedRecordStore.class).isSameAs(injector.getInstance(RecordStore.class));
      assertThat(((CheckedRecordStore) store).storage()).isInstanceOf(LuceneRecordStore.class);
      assertThat(vectors).isInstanceOf(LuceneVectorIndex.class).isSameAs(injector.getInstance(VectorIndex.class));
      RawTurn t = Fixtures.turn("alice", "s1", 0, "hello there");
      store.appendTurns("alice", "s1", java.util.List.of(t));
      vectors.upsert("alice", VectorIndex.TURNS, Map.of(t.id(), new float[] {1, 0}));
      assertThat(Files.isDirectory(dir.resolve("records"))).isTrue();
      assertThat(Files.isDirectory(dir.resolve("vectors"))).isTrue();
    } finally {
      store.close();
      vectors.close();
    }
    Injector again = Guice.createInjector(new LuceneStoreModule(dir));
    try (RecordStore store2 = again.getInstance(RecordStore.class);
        VectorIndex vectors2 = again.getInstance(VectorIndex.class)) {
      assertThat(store2.countTurns("alice")).isEqualTo(1);
      assertThat(vectors2.size("alice", VectorIndex.TURNS)).isEqualTo(1);
    }
  }

  @Test
  void configValidatesAndKeepsDocumentedDefaults() {
    LuceneStoreConfig d = LuceneStoreConfig.defaults();
    assertThat(d.exactSearchMaxVectors()).isEqualTo(20_000);
    assertThat(d.hnswMaxConn()).isEqualTo(16);
    assertThat(d.hnswBeamWidth()).isEqualTo(100);
    assertThat(d.widenedFetch(10)).isEqualTo(90);
    assertThat(d.widenedFetch(50)).isEqualTo(250);
    assertThat(d.widenedFetch(1)).isEqualTo(81);
    assertThat(d.toBuilder().build()).isEqualTo(d);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> LuceneStoreConfig.builder().hnswMaxConn(1).build())
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> LuceneStoreConfig.builder().maxQueryTerms(0).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void newDirectoriesArePrivateToTheirOwner() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
    Path root = dir.resolve("home").resolve("memory");
    Injector injector = Guice.createInjector(new LuceneStoreModule(root));
    try (RecordStore store = injector.getInstance(RecordStore.class);
        VectorIndex vectors = injector.getInstance(VectorIndex.class)) {
      store.appendTurns("alice", "s1", java.util.List.of(Fixtures.turn("alice", "s1", 0, "my bank is Acme")));
      for (Path d : java.util.List.of(dir.resolve("home"), root, root.resolve("records"), root.resolve("vectors"))) {
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(d)))
            .as(d.toString()).isEqualTo("rwx------");
      }
    }
  }
}
