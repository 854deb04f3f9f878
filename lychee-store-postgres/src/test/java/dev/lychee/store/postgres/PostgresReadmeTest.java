package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The code of the README's PostgreSQL section, run against the test server. */
class PostgresReadmeTest {

  @Test
  @Timeout(120)
  void theReadmeExampleStoresAndRecallsThroughPostgres() {
    String url = TestPostgres.get().url();
    String schema = TestPostgres.freshSchema();
    // readme:begin postgres-store
    // every instance of the application opens the same database and schema
    PostgresStoreConfig settings = PostgresStoreConfig.builder().schema(schema).maxPoolSize(8).build();
    try (Lychee memory = Lychee.create(new PostgresStoreModule(url, settings), new OnnxEmbeddingModule())) {
      memory.append("alice", "s1", List.of(Turn.user("Nadia", "I adopted a puppy named Biscuit.")));
      memory.flush("alice", "s1");
      memory.awaitIdle("alice", Duration.ofSeconds(30));
      System.out.println(memory.recall("alice", "What is the name of Nadia's puppy?").evidence());
    }
    // readme:end postgres-store
    try (Lychee other = Lychee.create(new PostgresStoreModule(url, settings), new OnnxEmbeddingModule())) {
      assertThat(other.recall("alice", "What is the name of Nadia's puppy?").evidence())
          .extracting(Evidence::text).anyMatch(t -> t.contains("Biscuit"));
      assertThat(other.status("alice").turns()).isEqualTo(1);
    }
  }
}
