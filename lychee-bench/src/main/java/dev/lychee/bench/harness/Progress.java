package dev.lychee.bench.harness;

import java.io.PrintStream;

/**
 * Reports the progress of a long run: a redrawn bar on an interactive terminal, plain log lines
 * otherwise (so that logs stay readable when the output is a file or a pipe).
 */
public interface Progress {
  /** Starts a task of {@code total} steps (for example the questions of one conversation). */
  void start(String label, int total);

  /** One more step of the current task is done. */
  void step();

  /** The current task is done; {@code summary} is shown once. */
  void done(String summary);

  /** A free message. */
  void log(String message);

  /** A bar when a console is attached ({@code System.console() != null}), log lines otherwise. */
  static Progress forCurrentProcess(PrintStream err) {
    return System.console() != null ? new TerminalProgress(err) : new LogProgress(err);
  }

  /** No output at all (tests). */
  static Progress silent() {
    return new Progress() {
      @Override public void start(String label, int total) {}
      @Override public void step() {}
      @Override public void done(String summary) {}
      @Override public void log(String message) {}
    };
  }
}
