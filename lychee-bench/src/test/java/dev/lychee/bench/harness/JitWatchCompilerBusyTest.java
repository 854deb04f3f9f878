package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class JitWatchCompilerBusyTest {
  @Test
  void onlyTheCompilerThreadsCount() {
    List<OsThreads.Task> tasks = List.of(
        new OsThreads.Task("C2 CompilerThre", 3_000_000L, 2_000_000L),
        new OsThreads.Task("C1 CompilerThre", 1_000_000L, -1),
        new OsThreads.Task("main", 50_000_000L, 0),
        new OsThreads.Task("GC Thread#", 7_000_000L, 0),
        new OsThreads.Task("VM Thread", 2_000_000L, 0));

    // CPU and run-queue wait of the compilers only (an unknown wait counts nothing)
    assertThat(JitWatch.compilerBusyMs(tasks)).isEqualTo(6.0);
    assertThat(JitWatch.isCompiler("C2 CompilerThre")).isTrue();
    assertThat(JitWatch.isCompiler("Sweeper thread")).isFalse();
  }

  @Test
  void theLiveClockGrowsWhileTheCompilersWork() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
    double before = JitWatch.compilerBusyMs();
    // new code to compile: the compiler threads have used CPU on it by the time it runs compiled
    long x = 0;
    for (int round = 0; round < 200 && JitWatch.compilerBusyMs() <= before; round++) {
      for (int i = 0; i < 200_000; i++) {
        x += Long.toString(i * 31L + round).hashCode();
      }
      Thread.sleep(5);
    }
    assertThat(x).isNotEqualTo(1);
    assertThat(JitWatch.compilerBusyMs()).isGreaterThan(before);
    // it reads the compiler threads, not the compile time of finished compilations
    assertThat(JitWatch.compilerBusyMs()).isGreaterThan(0);
  }
}
