package dev.lychee.bench.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.core.LycheeConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A run's scratch directory is gone, files and sub-directories included, once it is closed. */
class ScratchDirectoryTest {

  @Test
  void closeDeletesTheDirectoryAndEverythingInIt() throws Exception {
    Path path;
    try (ScratchDirectory dir = ScratchDirectory.create("lychee-scratch-test-")) {
      path = dir.path();
      assertThat(path).isDirectory().isEmptyDirectory();
      assertThat(path.getFileName().toString()).startsWith("lychee-scratch-test-");
      Files.writeString(path.resolve("lychee.db"), "pages");
      Files.createDirectories(path.resolve("hnsw/turn"));
      Files.writeString(path.resolve("hnsw/turn/graph.bin"), "graph");
    }
    assertThat(path).doesNotExist();
  }

  @Test
  void closingTwiceOrAfterTheDirectoryWentIsHarmless() throws Exception {
    ScratchDirectory dir = ScratchDirectory.create("lychee-scratch-test-");
    dir.close();
    assertThat(dir.path()).doesNotExist();
    assertThatCode(dir::close).doesNotThrowAnyException();
  }

  @Test
  void aStoreThatCannotStartLeavesNoScratchDirectory() throws Exception {
    Assumptions.assumeTrue(System.getenv("LYCHEE_PG_URL") == null, "LYCHEE_PG_URL is set: PostgreSQL would start");
    List<Path> before = scratch("lychee-bench-postgres");
    assertThatThrownBy(() -> new LycheeSystem("lychee", new HashingEmbedder(), LycheeConfig.defaults(), 10,
        StoreChoice.POSTGRES)).hasMessageContaining("LYCHEE_PG_URL");
    assertThat(scratch("lychee-bench-postgres")).as("scratch directories left").isEqualTo(before);
  }

  private static List<Path> scratch(String prefix) throws IOException {
    try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return all.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
    }
  }
}
