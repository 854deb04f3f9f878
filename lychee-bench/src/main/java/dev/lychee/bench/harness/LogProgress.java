package dev.lychee.bench.harness;

import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/** Plain, timestamped log lines: one at the start of a task, a few on the way, one at the end. */
final class LogProgress implements Progress {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
  private final PrintStream out;
  private String label = "";
  private int total;
  private int done;
  private int nextReport;

  LogProgress(PrintStream out) {
    this.out = out;
  }

  @Override
  public void start(String label, int total) {
    this.label = label;
    this.total = total;
    this.done = 0;
    this.nextReport = Math.max(1, total / 4);
    line(label + ": started (" + total + " steps)");
  }

  @Override
  public void step() {
    done++;
    if (done >= nextReport && done < total) {
      line(label + ": " + done + "/" + total);
      nextReport += Math.max(1, total / 4);
    }
  }

  @Override
  public void done(String summary) {
    line(label + ": " + summary);
  }

  @Override
  public void log(String message) {
    line(message);
  }

  private void line(String s) {
    out.println("[" + TIME.format(LocalTime.now()) + "] " + s);
    out.flush();
  }
}
