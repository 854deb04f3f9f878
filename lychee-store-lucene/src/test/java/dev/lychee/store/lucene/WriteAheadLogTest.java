package dev.lychee.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log's two files: rotation, retiring the covered file, reading both in sequence order. */
class WriteAheadLogTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> read(WriteAheadLog log) throws IOException {
    return log.read().entries().stream()
        .map(e -> e.lsn() + ":" + new String(e.payload(), StandardCharsets.UTF_8)).toList();
  }

  /**
   * Entries are written under the index's write lock and synced after it (round nineteen): one
   * sync covers every entry written before it, each file written to since is synced once, and an
   * entry a commit holds needs none.
   */
  @Test
  void oneSyncCoversEveryEntryWrittenBeforeItAndACommittedEntryNeedsNone() throws IOException {
    try (WriteAheadLog log = new WriteAheadLog(dir, true)) {
      log.write(1, bytes("a"));
      log.write(2, bytes("b"));
      log.syncTo(1);
      assertThat(log.forces()).isEqualTo(1);
      log.syncTo(2);
      assertThat(log.forces()).as("entry 2 was written before the first sync").isEqualTo(1);
      log.write(3, bytes("c"));
      log.rotate();
      log.write(4, bytes("d"));
      log.syncTo(4);
      assertThat(log.forces()).as("both files were written to since").isEqualTo(3);
      log.write(5, bytes("e"));
      log.markSynced(5);
      log.syncTo(5);
      assertThat(log.forces()).isEqualTo(3);
      assertThat(read(log)).containsExactly("1:a", "2:b", "3:c", "4:d", "5:e");
    }
  }

  @Test
  void aRotationSendsLaterEntriesToTheOtherFileAndRetiringEmptiesOnlyTheCoveredOne() throws IOException {
    try (WriteAheadLog log = new WriteAheadLog(dir, false)) {
      log.append(1, bytes("a"));
      log.append(2, bytes("b"));
      int covered = log.rotate();
      log.append(3, bytes("c"));
      // the other file still holds entry 3: no second rotation until a commit covered it
      assertThat(log.rotate()).isEqualTo(-1);
      assertThat(read(log)).containsExactly("1:a", "2:b", "3:c");
      log.retire(covered);
      assertThat(read(log)).containsExactly("3:c");
      log.clear();
      assertThat(log.isEmpty()).isTrue();
    }
    try (WriteAheadLog again = new WriteAheadLog(dir, false)) {
      assertThat(read(again)).isEmpty();
    }
  }

  @Test
  void entriesOfBothFilesComeBackInSequenceOrderAfterAReopen() throws IOException {
    try (WriteAheadLog log = new WriteAheadLog(dir, true)) {
      log.append(7, bytes("x"));
      log.rotate();
      log.append(8, bytes("y"));
      log.append(9, bytes("z"));
    }
    try (WriteAheadLog again = new WriteAheadLog(dir, true)) {
      WriteAheadLog.Contents contents = again.read();
      assertThat(contents.torn()).isZero();
      assertThat(read(again)).containsExactly("7:x", "8:y", "9:z");
    }
  }
}
