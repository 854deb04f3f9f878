package dev.lychee.bench.harness;

import java.io.PrintStream;

/** A progress bar redrawn in place with carriage returns. */
final class TerminalProgress implements Progress {
  private static final int WIDTH = 30;
  private final PrintStream out;
  private String label = "";
  private int total;
  private int done;
  private long startNanos;

  TerminalProgress(PrintStream out) {
    this.out = out;
  }

  @Override
  public void start(String label, int total) {
    this.label = label;
    this.total = Math.max(total, 0);
    this.done = 0;
    this.startNanos = System.nanoTime();
    draw();
  }

  @Override
  public void step() {
    done++;
    // Redraw at most ~100 times per task: terminals are slow.
    if (total <= 100 || done % Math.max(1, total / 100) == 0 || done == total) {
      draw();
    }
  }

  private void draw() {
    int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * Math.min(done, total) / total);
    double secs = (System.nanoTime() - startNanos) / 1e9;
    out.printf("\r%-28s [%s%s] %d/%d %.0fs ", label, "#".repeat(filled), ".".repeat(WIDTH - filled),
        done, total, secs);
    out.flush();
  }

  @Override
  public void done(String summary) {
    out.print("\r" + " ".repeat(WIDTH + 50) + "\r");
    out.println(label + ": " + summary);
    out.flush();
  }

  @Override
  public void log(String message) {
    out.println(message);
    out.flush();
  }
}
