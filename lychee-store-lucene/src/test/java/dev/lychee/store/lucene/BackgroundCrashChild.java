package dev.lychee.store.lucene;

import dev.lychee.core.conformance.BackgroundCrashScenario;
import java.nio.file.Path;

/** The child of {@link BackgroundCrashTest}: background encoding over Lucene until killed. */
public final class BackgroundCrashChild {
  private BackgroundCrashChild() {}

  public static void main(String[] args) {
    BackgroundCrashScenario.runChild(new LuceneStoreModule(Path.of(args[0])));
  }
}
