package dev.lychee.store.lucene;

import dev.lychee.core.conformance.BackgroundCrashScenario;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SIGKILL while the background encoder's queue holds segments, on Lucene. */
class BackgroundCrashTest {
  @TempDir Path dir;

  @Test
  @Timeout(180)
  void aKillWithQueuedSegmentsLosesNoAcknowledgedTurnAndEncodesEverySegmentOnce() throws Exception {
    Path index = dir.resolve("bg");
    Map<String, Integer> acked = BackgroundCrashScenario.runAndKill(BackgroundCrashChild.class, index.toString(),
        dir.resolve("child.err"), 12);
    BackgroundCrashScenario.verifyAfterRestart(v -> new LuceneStoreModule(index), acked);
  }
}
