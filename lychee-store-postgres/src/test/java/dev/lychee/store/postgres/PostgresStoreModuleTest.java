package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.lychee.api.Evidence;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.SegmentClaims;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.Lychee;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.testing.HashingEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Guice wiring, and two Lychee instances sharing one memory through PostgreSQL. */
class PostgresStoreModuleTest {

  private static AbstractModule embedder() {
    return new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(new HashingEmbedder());
      }
    };
  }

  @Test
  void bindsSingletonsOverOnePool() {
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(2).build();
    Injector injector = Guice.createInjector(new PostgresStoreModule(TestPostgres.get().url(), config));
    RecordStore store = injector.getInstance(RecordStore.class);
    VectorIndex vectors = injector.getInstance(VectorIndex.class);
    assertThat(store).isInstanceOf(CheckedRecordStore.class).isSameAs(injector.getInstance(RecordStore.class));
    assertThat(vectors).isInstanceOf(PostgresVectorIndex.class).isSameAs(injector.getInstance(VectorIndex.class));
    assertThat(TestPostgres.databaseOf(store))
        .isSameAs(injector.getInstance(PostgresDatabase.class));
    assertThat(injector.getInstance(SegmentClaims.class)).isInstanceOf(PostgresSegmentClaims.class)
        .isSameAs(injector.getInstance(SegmentClaims.class));
    assertThat(new PostgresStoreModule("jdbc:postgresql://u:secret@h:5432/db?password=secret").toString())
        .doesNotContain("secret").contains("h:5432/db");
    store.close();
    vectors.close();
  }

  @Test
  void twoInstancesShareOneMemory() {
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(TestPostgres.freshSchema()).maxPoolSize(3).build();
    String url = TestPostgres.get().url();
    try (Lychee first = Lychee.create(new PostgresStoreModule(url, config), embedder());
        Lychee second = Lychee.create(new PostgresStoreModule(url, config), embedder())) {
      first.append("alice", "trip", List.of(
          Turn.user("Alice", "I adopted a grey cat named Pixel last spring."),
          Turn.assistant("Pixel is a lovely name for a cat."),
          Turn.user("Alice", "She sleeps on my keyboard every morning.")));
      first.flush("alice", "trip");
      second.append("alice", "trip", List.of(Turn.user("Alice", "Tomorrow I fly to Lisbon for a conference.")));
      second.flush("alice", "trip");

      assertThat(first.store().turns("alice", "trip")).hasSize(4)
          .extracting(t -> t.index()).containsExactly(0, 1, 2, 3);
      List<String> seenBySecond = second.recall("alice", "What is the name of Alice's cat?").evidence().stream()
          .map(Evidence::text).toList();
      assertThat(String.join("\n", seenBySecond)).contains("Pixel");
      List<String> seenByFirst = first.recall("alice", "Where does Alice fly tomorrow?").evidence().stream()
          .map(Evidence::text).toList();
      assertThat(String.join("\n", seenByFirst)).contains("Lisbon");

      second.forget("alice");
      assertThat(first.recall("alice", "What is the name of Alice's cat?").evidence()).isEmpty();
      assertThat(first.store().countTurns("alice")).isZero();
      assertThat(first.vectors().size("alice", VectorIndex.TURNS)).isZero();
    }
  }
}
