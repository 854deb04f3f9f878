package dev.lychee.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes output files so that an interrupted run (Ctrl-C) never leaves a half-written one: the
 * content goes to a temporary file in the same directory, which is then moved over the target.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void write(Path target, String content) throws IOException {
    Path abs = target.toAbsolutePath();
    Path dir = abs.getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, "." + abs.getFileName(), ".tmp");
    tmp.toFile().deleteOnExit(); // removed by the JVM's shutdown if we are interrupted mid-write
    try {
      Files.writeString(tmp, content, StandardCharsets.UTF_8);
      try {
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
