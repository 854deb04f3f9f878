package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {
  @Test
  void aBusyThreadBesideTheCallerIsReportedUnderItsNumberedGroup() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch started = new CountDownLatch(1);
    Thread busy = new Thread(() -> {
      started.countDown();
      long x = 0;
      while (!stop.get()) {
        x += System.nanoTime() % 7;
      }
      if (x == 42) {
        System.out.print("");
      }
    }, "spinner-17");
    busy.start();
    started.await(5, TimeUnit.SECONDS);
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    ProcessCpu start = ProcessCpu.mark();
    long spun0 = threads.getThreadCpuTime(busy.getId());
    // the span ends once the spinner has had 30 ms of CPU, however busy the machine is
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (threads.getThreadCpuTime(busy.getId()) - spun0 < 30_000_000L && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    ProcessCpu end = ProcessCpu.mark();
    stop.set(true);
    busy.join();

    ProcessCpu.Span span = ProcessCpu.between(start, end);
    // what ran beside the caller is named, with the CPU it had in the span
    assertThat(span.cpuMs("spinner-#")).isGreaterThanOrEqualTo(30);
    assertThat(span.wallMs()).isPositive();
    // the process's CPU comes in the OS's clock ticks (10 ms on Linux), the threads' finer
    assertThat(span.processCpuMs()).isGreaterThanOrEqualTo(span.cpuMs("spinner-#") - 20);
    assertThat(span.describe()).contains("elsewhere");
    if (Files.isDirectory(Path.of("/proc/self/task"))) {
      // on Linux the OS's view names the same thread, and does not count it again outside Java
      assertThat(span.elsewhereCpuMs("spinner-#")).isZero();
      assertThat(span.callerRunQueueMs()).isNotNaN();
      assertThat(span.runQueueMs()).isGreaterThanOrEqualTo(span.callerRunQueueMs());
    }
  }

  @Test
  void theJvmsOwnThreadsAreNamedBesideTheJavaThreads() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
    ProcessCpu start = ProcessCpu.mark();
    // a full collection of a live heap runs on the collector's workers or the VM thread, which no
    // Java API lists
    List<long[]> live = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      live.add(new long[16_384]);
    }
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    ProcessCpu end = ProcessCpu.mark();
    assertThat(live).hasSize(400);

    ProcessCpu.Span span = ProcessCpu.between(start, end);
    assertThat(span.collections()).isPositive();
    assertThat(span.elsewhereThreads()).extracting(ProcessCpu.Group::name)
        .anyMatch(n -> n.startsWith("GC Thread") || n.startsWith("VM Thread") || n.startsWith("G1"));
    // the caller is a Java thread, named as such and not among the others
    assertThat(span.elsewhereThreads()).extracting(ProcessCpu.Group::name).doesNotContain("main", "java");
    assertThat(span.describe()).contains("waited for a core");
  }

  @Test
  void withoutTheOsThreadsTheSpanFallsBackToTheJvmsCounts() {
    Path absent = Path.of("/nonexistent-lychee-task-dir");
    ProcessCpu start = ProcessCpu.mark(absent);
    ProcessCpu end = ProcessCpu.mark(absent);

    ProcessCpu.Span span = ProcessCpu.between(start, end);
    assertThat(span.elsewhereThreads()).isEmpty();
    assertThat(span.runQueueMs()).isNaN();
    assertThat(span.describe()).contains("elsewhere (JIT, GC, native)").doesNotContain("waited");
  }

  @Test
  void numberedThreadsOfOnePoolAreOneGroup() {
    assertThat(ProcessCpu.group("Lucene Merge Thread #207")).isEqualTo("Lucene Merge Thread ##");
    assertThat(ProcessCpu.group("lychee-recall-early-3")).isEqualTo("lychee-recall-early-#");
    assertThat(ProcessCpu.group("main")).isEqualTo("main");
  }
}
