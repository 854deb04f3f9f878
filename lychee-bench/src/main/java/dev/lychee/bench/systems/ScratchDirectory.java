package dev.lychee.bench.systems;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A temporary directory that holds one run's store files and is deleted, with everything in it,
 * on {@link #close}. Every `eval` run that opens a store on disk gets one, so that repeated runs
 * do not fill {@code java.io.tmpdir} (an append table's SQLite files are about 13 MB a row).
 */
public final class ScratchDirectory implements AutoCloseable {
  private final Path path;

  private ScratchDirectory(Path path) {
    this.path = path;
  }

  /** Creates a new empty directory under {@code java.io.tmpdir} whose name starts with {@code prefix}. */
  public static ScratchDirectory create(String prefix) throws IOException {
    return new ScratchDirectory(Files.createTempDirectory(prefix));
  }

  /** The directory. */
  public Path path() {
    return path;
  }

  /**
   * Deletes the directory and its files, best effort: a file that cannot be deleted (still open
   * on a platform that forbids that) is left, and so is the directory then; nothing is thrown,
   * since a run's result must not be lost over its scratch files.
   */
  @Override
  public void close() {
    try (Stream<Path> paths = Files.walk(path)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // already gone, or unreadable: nothing more to do
    }
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
