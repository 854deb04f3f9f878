package dev.lychee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Module;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import dev.lychee.store.sqlite.SqliteStoreConfig;
import dev.lychee.store.sqlite.SqliteStoreModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The code of lychee-store-sqlite's README, run in this module's working directory. */
class SqliteReadmeTest {

  @Test
  @Timeout(120)
  void bothWaysOfOpeningTheStoreWork() throws Exception {
    Files.deleteIfExists(Path.of("memory.db"));
    // readme:begin sqlite-store
    try (Lychee memory = Lychee.create(new SqliteStoreModule(Path.of("memory.db")), new OnnxEmbeddingModule())) {
      memory.append("alice", "s1", List.of(Turn.user("Nadia", "I adopted a puppy.")));
    }
    // or, with settings:
    Module relaxed = new SqliteStoreModule(Path.of("memory.db"), SqliteStoreConfig.builder().synchronousFull(false).build());
    // readme:end sqlite-store
    try (Lychee again = Lychee.create(relaxed, new OnnxEmbeddingModule())) {
      assertThat(again.recall("alice", "What did Nadia adopt?").evidence())
          .extracting(dev.lychee.api.Evidence::text).anyMatch(t -> t.contains("I adopted a puppy."));
    }
  }
}
