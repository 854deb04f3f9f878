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
    ProcessCpu start = ProcessCpu.mark();
    Thread.sleep(300);
    ProcessCpu end = ProcessCpu.mark();
    stop.set(true);
    busy.join();

    ProcessCpu.Span span = ProcessCpu.between(start, end);
    // the spinner ran the whole span; the caller slept: what ran beside the caller is named
    assertThat(span.cpuMs("spinner-#")).isPositive();
    assertThat(span.cpuMs("spinner-#")).isGreaterThan(span.cpuMs(ProcessCpu.group(Thread.currentThread().getName())));
    assertThat(span.wallMs()).isGreaterThanOrEqualTo(300);
    // the process's CPU comes in the OS's clock ticks (10 ms on Linux), the threads' finer
    assertThat(span.processCpuMs()).isGreaterThanOrEqualTo(span.cpuMs("spinner-#") - 20);
    assertThat(span.describe()).contains("spinner-#").contains("elsewhere");
  }

  @Test
  void numberedThreadsOfOnePoolAreOneGroup() {
    assertThat(ProcessCpu.group("Lucene Merge Thread #207")).isEqualTo("Lucene Merge Thread ##");
    assertThat(ProcessCpu.group("lychee-recall-early-3")).isEqualTo("lychee-recall-early-#");
    assertThat(ProcessCpu.group("main")).isEqualTo("main");
  }
}
