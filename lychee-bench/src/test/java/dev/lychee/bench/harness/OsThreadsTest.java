package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OsThreadsTest {
  @TempDir Path dir;

  @Test
  void readsNamesCpuAndWaitsAsLinuxWritesThem() throws IOException {
    // a comm with a space and a parenthesis, as the JVM's own threads and odd names have
    task(11, "C2 CompilerThre", 120, 30, "2500000000 400000000 77");
    task(12, "GC Thread#3", 5, 1, "60000000 2000000 9");
    task(13, "odd) name(", 1, 0, "10000000 0 1");
    // no schedstat (a kernel without it): the ticks of stat, 10 ms each, and no wait
    task(14, "VM Thread", 7, 3, null);
    task(15, "java", 900, 100, "10000000000 500000000 4000");
    Files.createDirectories(dir.resolve("self")); // not a task id: skipped

    Map<Integer, OsThreads.Task> tasks = OsThreads.read(dir, 15, "main");

    assertThat(tasks).hasSize(5);
    assertThat(tasks.get(11)).isEqualTo(new OsThreads.Task("C2 CompilerThre", 2_500_000_000L, 400_000_000L));
    assertThat(tasks.get(12)).isEqualTo(new OsThreads.Task("GC Thread#", 60_000_000L, 2_000_000L));
    assertThat(tasks.get(13).name()).isEqualTo("odd) name(");
    assertThat(tasks.get(14)).isEqualTo(new OsThreads.Task("VM Thread", 100_000_000L, -1));
    // the caller is named as its Java thread, not by the launcher's comm
    assertThat(tasks.get(15).name()).isEqualTo("main");
  }

  @Test
  void aMissingTaskDirectoryGivesNoThreads() {
    assertThat(OsThreads.read(dir.resolve("absent"), 1, "main")).isEmpty();
  }

  @Test
  void groupsKeepCompilersApartAndJoinNumberedWorkers() {
    assertThat(OsThreads.group("C1 CompilerThre")).isEqualTo("C1 CompilerThre");
    assertThat(OsThreads.group("C2 CompilerThre")).isEqualTo("C2 CompilerThre");
    assertThat(OsThreads.group("GC Thread#12")).isEqualTo("GC Thread#");
    assertThat(OsThreads.group("G1 Conc#0")).isEqualTo("G1 Conc#");
    assertThat(OsThreads.group("VM Thread")).isEqualTo("VM Thread");
    // a Java thread's OS name is its Java name cut to 15 characters
    assertThat(OsThreads.groupOfJavaName("lychee-onnx-embed-2")).isEqualTo("lychee-onnx-emb");
    assertThat(OsThreads.groupOfJavaName("spinner-17")).isEqualTo("spinner-#");
  }

  private void task(int tid, String comm, long utime, long stime, String schedstat) throws IOException {
    Path t = Files.createDirectories(dir.resolve(String.valueOf(tid)));
    // fields 3.. of Linux's stat: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt,
    // majflt, cmajflt, utime, stime, ...
    Files.writeString(t.resolve("stat"), tid + " (" + comm + ") S 1 1 1 0 -1 4194560 10 0 0 0 " + utime + " "
        + stime + " 0 0 20 0 40 0 100 0 0\n");
    if (schedstat != null) {
      Files.writeString(t.resolve("schedstat"), schedstat + "\n");
    }
  }
}
