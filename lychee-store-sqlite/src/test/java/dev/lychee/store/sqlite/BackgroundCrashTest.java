package dev.lychee.store.sqlite;

import dev.lychee.core.conformance.BackgroundCrashScenario;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SIGKILL while the background encoder's queue holds segments, on SQLite. */
class BackgroundCrashTest {
  @TempDir Path dir;

  @Test
  @Timeout(180)
  void aKillWithQueuedSegmentsLosesNoAcknowledgedTurnAndEncodesEverySegmentOnce() throws Exception {
    Path db = dir.resolve("bg.db");
    Map<String, Integer> acked = BackgroundCrashScenario.runAndKill(BackgroundCrashChild.class, db.toString(),
        dir.resolve("child.err"), 12);
    BackgroundCrashScenario.verifyAfterRestart(v -> new SqliteStoreModule(db), acked);
  }
}
