package dev.lychee.store.sqlite;

import dev.lychee.core.conformance.BackgroundCrashScenario;
import java.nio.file.Path;

/** The child of {@link BackgroundCrashTest}: background encoding over SQLite until killed. */
public final class BackgroundCrashChild {
  private BackgroundCrashChild() {}

  public static void main(String[] args) {
    BackgroundCrashScenario.runChild(new SqliteStoreModule(Path.of(args[0]),
        SqliteStoreConfig.builder().synchronousFull(false).build()));
  }
}
