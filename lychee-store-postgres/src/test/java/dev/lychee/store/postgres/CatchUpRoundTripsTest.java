package dev.lychee.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * What a recall sends when the namespace changed since the last one, as after an agent's
 * {@code append}: the heads statement, then one statement per local copy that has to catch up (the
 * rows, each vector kind that moved), each reading its head and its changes since in one snapshot
 * (round twenty-one). Before, each catch-up was a REPEATABLE READ transaction of four or five
 * round trips (the isolation setting, the head, one or two reads, the commit): 36 statements for
 * this recall, now 8. Counted at the JDBC driver, which does not depend on the machine's load.
 */
class CatchUpRoundTripsTest {
  @Test
  void aRecallAfterAnAppendCatchesEachCopyUpInOneStatement() {
    CountingDataSource counting = new CountingDataSource(TestPostgres.get().url());
    try (Lychee memory = TwoSessionLychee.open(counting)) {
      // every copy (turns, rows, each vector kind) is loaded by a first recall
      memory.recall("ns", "Where did Bob move to?");
      memory.append("ns", "s3", List.of(Turn.user("Cleo", "My sister Ana started learning the cello in Porto in June."),
          Turn.assistant("Lovely.")));
      memory.awaitIdle("ns", Duration.ofMinutes(1));
      counting.drain();

      assertThat(memory.recall("ns", "Who learns the cello?").evidence()).isNotEmpty();

      List<String> sent = counting.drain();
      assertThat(sent).as("statements sent: %s", sent)
          .noneMatch(sql -> sql.toUpperCase(Locale.ROOT).startsWith("SET TRANSACTION"))
          .noneMatch("COMMIT"::equals);
      assertThat(sent.stream().filter(sql -> sql.contains("turn_heads") && sql.contains("vector_heads")))
          .as("the heads statement").hasSize(1);
      assertThat(sent.stream().filter(sql -> sql.startsWith("WITH h AS (SELECT epoch, seq FROM row_heads")))
          .as("the rows' catch-up, records and nodes together: %s", sent).hasSize(1);
      List<String> vectorCatchUps = sent.stream()
          .filter(sql -> sql.startsWith("WITH h AS (SELECT epoch, seq, ") && sql.contains("FROM vector_heads")).toList();
      // the turns, the records and the node kinds the new session's encoding wrote
      assertThat(vectorCatchUps).as("one statement per vector kind that moved: %s", sent).isNotEmpty().hasSizeLessThanOrEqualTo(6);
      assertThat(sent).as("statements sent: %s", sent).hasSize(2 + vectorCatchUps.size());
    }
  }
}
