package dev.lychee.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import dev.lychee.api.RawTurn;
import dev.lychee.api.spi.RecordStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs append unindexed turns to the same session of one SQLite file at once: every
 * acknowledged turn is stored exactly once, at indices 0..n-1 (issue 18.2: before, the next index
 * was read outside the write transaction and one process's turn was skipped as "already stored").
 */
class TwoProcessAppendTest {
  @TempDir Path dir;

  @Test
  @Timeout(180)
  void everyAcknowledgedTurnIsStoredOnceWhenTwoProcessesShareASession() throws Exception {
    Path db = dir.resolve("shared.db");
    // create the schema first, so both children only append
    SqliteRecordStore.open(db, SqliteStoreConfig.defaults()).close();
    int perWriter = 150;
    List<Process> children = new ArrayList<>();
    for (String writer : List.of("a", "b")) {
      children.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
          System.getProperty("java.class.path"), AppendChild.class.getName(), db.toString(), writer,
          Integer.toString(perWriter)).redirectErrorStream(true).start());
    }
    for (Process p : children) {
      assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(out).as(out).contains("done").doesNotContain("lost");
      assertThat(p.exitValue()).isZero();
    }
    try (RecordStore store = SqliteRecordStore.open(db, SqliteStoreConfig.defaults())) {
      List<RawTurn> turns = store.turns(AppendChild.NS, AppendChild.SESSION);
      assertThat(turns).hasSize(2 * perWriter);
      assertThat(turns).extracting(RawTurn::index).containsExactlyElementsOf(
          java.util.stream.IntStream.range(0, 2 * perWriter).boxed().toList());
      assertThat(turns).extracting(RawTurn::text).doesNotHaveDuplicates();
      for (String writer : List.of("a", "b")) {
        assertThat(turns).filteredOn(t -> t.text().startsWith(writer + " ")).hasSize(perWriter);
      }
    }
  }
}
