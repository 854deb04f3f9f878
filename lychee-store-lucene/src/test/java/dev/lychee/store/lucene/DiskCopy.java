package dev.lychee.store.lucene;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What an index directory holds on disk at one moment, copied as a process dying then would leave it. */
final class DiskCopy {
  private DiskCopy() {}

  /** Copies every file of {@code from} but the writer's lock file (the OS drops it with the process). */
  static void asIfCrashed(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        if (!f.getFileName().toString().equals("write.lock")) {
          Files.copy(f, to.resolve(f.getFileName()));
        }
      }
    }
  }
}
