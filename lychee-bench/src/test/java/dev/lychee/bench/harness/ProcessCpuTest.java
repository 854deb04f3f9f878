package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

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
  }

  @Test
  void numberedThreadsOfOnePoolAreOneGroup() {
    assertThat(ProcessCpu.group("Lucene Merge Thread #207")).isEqualTo("Lucene Merge Thread ##");
    assertThat(ProcessCpu.group("lychee-recall-early-3")).isEqualTo("lychee-recall-early-#");
    assertThat(ProcessCpu.group("main")).isEqualTo("main");
  }
}
