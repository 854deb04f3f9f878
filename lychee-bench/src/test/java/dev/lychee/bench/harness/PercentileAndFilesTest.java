package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PercentileAndFilesTest {
  @TempDir Path dir;

  @Test
  void nearestRankPercentiles() {
    double[] v = {5, 1, 4, 2, 3, 10, 9, 8, 7, 6};
    assertThat(SpeedRun.percentile(v, 50)).isEqualTo(5.0);
    assertThat(SpeedRun.percentile(v, 95)).isEqualTo(10.0);
    assertThat(SpeedRun.percentile(v, 90)).isEqualTo(9.0);
    assertThat(SpeedRun.percentile(new double[] {3}, 95)).isEqualTo(3.0);
    assertThat(SpeedRun.percentile(new double[0], 50)).isNaN();
  }

  @Test
  void atomicWriteReplacesTheTargetAndLeavesNoTemporaryFile() throws Exception {
    Path target = dir.resolve("sub/out.json");
    AtomicFiles.write(target, "{\"a\":1}");
    AtomicFiles.write(target, "{\"a\":2}");
    assertThat(target).hasContent("{\"a\":2}");
    try (var files = Files.list(target.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("out.json");
    }
  }
}
