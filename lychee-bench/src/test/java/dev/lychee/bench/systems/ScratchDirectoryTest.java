package dev.lychee.bench.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
