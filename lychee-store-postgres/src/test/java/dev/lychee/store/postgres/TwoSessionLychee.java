package dev.lychee.store.postgres;

import com.google.inject.AbstractModule;
import dev.lychee.api.Turn;
import dev.lychee.api.spi.Embedder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;

/**
 * A memory on PostgreSQL with the offline hashing embedder, holding two short sessions of namespace
 * {@code ns} (Amy's cat, Bob's move to Berlin), encoded: what the round-trip tests recall from.
 */
final class TwoSessionLychee {
  private TwoSessionLychee() {}

  /** Opens the memory on {@code dataSource} in a schema of its own and stores both sessions. */
  static Lychee open(DataSource dataSource) {
    PostgresStoreConfig config = PostgresStoreConfig.builder().maxPoolSize(3).schema(TestPostgres.freshSchema()).build();
    Lychee memory = Lychee.create(LycheeConfig.builder().build(), new PostgresStoreModule(dataSource, config),
        new AbstractModule() {
          @Override
          protected void configure() {
            bind(Embedder.class).toInstance(new HashingEmbedder());
          }
        });
    memory.append("ns", "s1", List.of(Turn.user("Amy", "I adopted a grey cat named Miso last spring."),
        Turn.assistant("What a lovely name.")));
    memory.append("ns", "s2", List.of(Turn.user("Bob", "I moved to Berlin in May and play the guitar there."),
        Turn.assistant("Enjoy the city.")));
    memory.awaitIdle("ns", Duration.ofMinutes(1));
    return memory;
  }
}
